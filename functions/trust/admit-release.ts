import type { Context } from "hono";
import type { PublishedEntry } from "../entry/published-entry.js";
import { authorizeTool, type AuthorizeDeps } from "./authorize-tool.js";
import { HttpProblem } from "../http-problem.js";
import { SIGNATURE_HEADER, verifySignature } from "./verify-signature.js";
import { auditSubjectStored, writerOf } from "./writer.js";

/**
 * The publish pipeline's admission step for an upload request (`PublishDeps.admit`): the writer
 * may publish this id (scope, action, owner); a signature sent with the upload is verified against
 * the owner's keys; then an id nobody owns is claimed for the writer (one conditional put: of two
 * first publishes, one owns the id and the other gets 403). All before anything is stored. The
 * admin may publish any id, so its unsigned release just claims the id (the claim answers the
 * owner when there is one already).
 * Returns the registry-owned fields the entry carries: `owner`, and `signature` when signed.
 */
export function admitRelease(c: Context, deps: AuthorizeDeps): (entry: PublishedEntry) => Promise<Partial<PublishedEntry>> {
  return async (entry) => {
    // Beside the admission (and the archive write): the event names the tool before its version item is written.
    const named = auditSubjectStored(c, { tool_id: entry.tool_id, version: entry.version });
    named.catch(() => undefined); // awaited below
    const writer = writerOf(c);
    const header = c.req.header(SIGNATURE_HEADER);
    if (writer.admin && header === undefined) {
      // Nothing can refuse the admin's unsigned release, so the claim comes first: one write for a new id, none for a known one.
      const [owner] = await Promise.all([deps.trust.owners.claim(entry.tool_id, writer.publisher, new Date().toISOString()), named]);
      return { owner };
    }
    const known = await authorizeTool(c, deps, entry.tool_id, "publish", entry.version);
    const signature = header === undefined ? undefined : await verifySignature(deps.trust.keys, header, known ?? writer.publisher, entry);
    const owner = known ?? (await deps.trust.owners.claim(entry.tool_id, writer.publisher, new Date().toISOString()));
    if (!writer.admin && owner !== writer.publisher) {
      throw new HttpProblem(
        403,
        "Forbidden",
        `Tool "${entry.tool_id}" was just claimed by publisher "${owner}"; ask ` +
          `the registry admin if you should publish it, or choose another tool_id.`,
      );
    }
    await named;
    return { owner, ...(signature === undefined ? {} : { signature }) };
  };
}
