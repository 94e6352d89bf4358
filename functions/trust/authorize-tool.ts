import type { Context } from "hono";
import type { EntryStore } from "../storage/entry-store.js";
import { HttpProblem } from "../http-problem.js";
import type { TrustStores } from "./trust-stores.js";
import { ADMIN_PUBLISHER } from "./publisher-name.js";
import { scopeAllows } from "./token-scope.js";
import type { WriteAction } from "../auth/write-action.js";
import { auditSubject, writerOf, type Writer } from "./writer.js";

export type AuthorizeDeps = { entries: Pick<EntryStore, "reads">; trust: TrustStores };

/**
 * Whether the request's writer may perform `action` on `toolId` (docs/design/publisher-trust.md):
 * the admin always may; a publisher token needs the action, the id in its scope, and the id not
 * owned by another publisher (403 naming the owner otherwise). Returns the id's owner, undefined
 * for an id nobody has published. Names the tool in the request's audit event first.
 */
export async function authorizeTool(
  c: Context,
  deps: AuthorizeDeps,
  toolId: string,
  action: WriteAction,
  version?: string,
): Promise<string | undefined> {
  auditSubject(c, { tool_id: toolId, ...(version === undefined ? {} : { version }) });
  const writer = writerOf(c);
  if (!writer.admin) checkToken(writer, toolId, action);
  const owner = await ownerOf(deps, toolId, writer);
  if (owner !== undefined && !writer.admin && owner !== writer.publisher) throw ownedByOther(toolId, owner, writer.publisher);
  return owner;
}

function checkToken(writer: Extract<Writer, { admin: false }>, toolId: string, action: WriteAction): void {
  const { token } = writer;
  if (!token.actions.includes(action)) {
    throw new HttpProblem(
      403,
      "Forbidden",
      `The token of publisher "${writer.publisher}" may ${token.actions.join(", ")}, ` +
        `not ${action}; ask the registry admin for a token with the "${action}" action.`,
    );
  }
  if (!scopeAllows(token.scope, toolId)) {
    throw new HttpProblem(
      403,
      "Forbidden",
      `Tool id "${toolId}" is outside the scope of publisher "${writer.publisher}" ` +
        `(${token.scope.join(", ")}); publish under an id in your scope, or ask the registry admin to widen it.`,
    );
  }
}

/** The stored owner; an id with versions but no owner was published before tokens existed, by the admin. */
async function ownerOf(deps: AuthorizeDeps, toolId: string, writer: Writer): Promise<string | undefined> {
  const owner = await deps.trust.owners.get(toolId);
  if (owner !== undefined || writer.admin) return owner;
  const partition = await deps.entries.reads.readPartition(toolId);
  return partition.versions.length > 0 ? ADMIN_PUBLISHER : undefined;
}

function ownedByOther(toolId: string, owner: string, publisher: string): HttpProblem {
  return new HttpProblem(
    403,
    "Forbidden",
    `Tool "${toolId}" belongs to publisher "${owner}", not "${publisher}"; ask the registry ` +
      `admin${owner === ADMIN_PUBLISHER ? "" : ` or ${owner}`} if you should publish it, or choose another tool_id.`,
  );
}
