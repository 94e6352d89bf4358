import { reservedToolIdProblem } from "./reserved-tool-names.js";
import { toolNameFromId } from "./tool-name.js";
import { RESERVED_TOOL_IDS, TOOL_ID_PATTERN } from "./tool-spec-schema.js";
import { describeValue } from "./value-description.js";

const TOOL_ID = new RegExp(TOOL_ID_PATTERN);
const EXAMPLE = 'e.g. "text-stats" or "acme.text-stats.v2"';

/**
 * What is wrong with `id` as a tool id, in words (`it contains "/", which would split the URL
 * /tools/{id}…`); undefined when it is valid. Routes check path segments with it, and spec.json's
 * `tool_id` with `toolIdSpecProblem`.
 */
export function toolIdProblem(id: string): string | undefined {
  if (id.length === 0) return "it is empty";
  if (id.length > 128) return `it is ${id.length} characters long, over the limit of 128`;
  if (id.includes("/")) return 'it contains "/", which would split the URL /tools/{id}; use "-" or "." instead';
  if (/\s/.test(id)) return 'it contains whitespace; use "-" instead of spaces';
  if (id.includes("..")) return 'it contains "..", which reads as a parent-folder reference';
  if (!/^[A-Za-z0-9]/.test(id)) return `it starts with ${JSON.stringify(id[0])}; start with a letter or digit`;
  const bad = [...new Set(id.replace(/[A-Za-z0-9._-]/g, ""))];
  if (bad.length > 0) return `it contains ${bad.map((char) => JSON.stringify(char)).join(", ")}`;
  return TOOL_ID.test(id) ? undefined : "it does not match the id pattern";
}

/** Whether `id` names a registry route under `/tools/` (any case), so a tool with it could never be fetched. */
export function isReservedToolId(id: string): boolean {
  return (RESERVED_TOOL_IDS as readonly string[]).includes(id.toLowerCase());
}

/**
 * The sentence saying what is wrong with spec.json's `tool_id` (absent, not a string, invalid, a
 * route's word, or a Toolkit name the SDK reserves: docs/permissions.md#one-namespace-for-tools);
 * undefined when it is fine.
 */
export function toolIdSpecProblem(value: unknown): string | undefined {
  if (value === undefined || value === null) return `spec.json has no tool_id. Add one, ${EXAMPLE}.`;
  if (typeof value !== "string") return `tool_id must be a string, but it is ${describeValue(value)}. Use ${EXAMPLE}.`;
  const problem = toolIdProblem(value);
  if (problem !== undefined) {
    const shown = JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value);
    return (
      `tool_id ${shown} is invalid: ${problem}. Ids are 1-128 letters, ` +
      `digits, ".", "_" or "-", starting with a letter or digit, ${EXAMPLE}.`
    );
  }
  if (isReservedToolId(value))
    return (
      `tool_id "${value}" is reserved by the registry's routes ` + `(${RESERVED_TOOL_IDS.join(", ")}); choose another tool_id in spec.json.`
    );
  const nameProblem = reservedToolIdProblem(value, toolNameFromId(value));
  return nameProblem === undefined ? undefined : `tool_id "${value}" is refused: ${nameProblem}.`;
}
