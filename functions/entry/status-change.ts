import type { PublishedEntry, VersionStatus } from "./published-entry.js";
import { HttpProblem } from "../http-problem.js";
import { isPlainObject } from "./field-types.js";

/** What `PATCH /tools/{id}/versions/{v}` asks for (docs/design/publisher-trust.md, "Version lifecycle"). */
export interface StatusChange {
  status: VersionStatus;
  /** The deprecation message or yank reason; required unless the status is `active`. */
  message?: string;
}

export const MAX_STATUS_MESSAGE_LENGTH = 1000;
const EXAMPLES =
  '{"status": "deprecated", "message": "use acme-search 2.x"}, {"status": "yanked", "reason": "leaks the API key"} or {"status": "active"}';

/** The body of a status change, checked: every problem is a 422 that says what to send. */
export function parseStatusChange(body: unknown): StatusChange {
  if (!isPlainObject(body)) throw invalid("the body must be a JSON object");
  const { status } = body;
  if (status !== "active" && status !== "deprecated" && status !== "yanked")
    throw invalid(`status must be "active", "deprecated" or "yanked"`);
  const field = status === "deprecated" ? "message" : "reason";
  const allowed = status === "active" ? ["status"] : ["status", field];
  const unknown = Object.keys(body).filter((key) => !allowed.includes(key));
  if (unknown.length > 0)
    throw invalid(
      `${unknown.map((key) => JSON.stringify(key.slice(0, 40))).join(", ")} ` +
        `${unknown.length === 1 ? "is" : "are"} not allowed with status "${status}"`,
    );
  if (status === "active") return { status };
  const message = body[field];
  if (typeof message !== "string" || message.trim() === "")
    throw invalid(`a ${status} version needs a "${field}" that tells users why (and what to use instead)`);
  if (message.length > MAX_STATUS_MESSAGE_LENGTH)
    throw invalid(`"${field}" is ${message.length} characters; at most ${MAX_STATUS_MESSAGE_LENGTH} are allowed`);
  return { status, message: message.trim() };
}

/** `entry` with the new status, its message, and the edit time `updatedAt`. */
export function withStatus(entry: PublishedEntry, change: StatusChange, updatedAt: string): PublishedEntry {
  const { status_message: _previous, ...rest } = entry;
  return {
    ...rest,
    status: change.status,
    ...(change.message === undefined ? {} : { status_message: change.message }),
    updated_at: updatedAt,
  };
}

function invalid(problem: string): HttpProblem {
  return new HttpProblem(422, "Invalid status change", `${problem}. Send ${EXAMPLES}.`);
}
