import type { Context, MiddlewareHandler } from "hono";
import { sha256Hex, type TokenVerifier } from "../auth/token-verifier.js";
import type { RegistryConfig } from "../config.js";
import { clientAddress } from "../http/client-address.js";
import { HttpProblem } from "../http-problem.js";
import type { AuditEvent } from "../storage/audit-store.js";
import { isToolId } from "../validate/tool-id.js";
import type { StorageSpace } from "../storage/storage-space.js";
import type { AuditAction } from "./audit-actions.js";
import { AuditTrail } from "./audit-trail.js";
import type { TrustStores } from "./trust-stores.js";
import { ADMIN_PUBLISHER } from "./publisher-name.js";
import { publisherOfToken } from "./publisher-token.js";
import type { Writer } from "./writer.js";

export type WriterDeps = { config: RegistryConfig; verifyToken: TokenVerifier; trust: TrustStores; space?: StorageSpace };

export interface WriterOptions {
  /**
   * What the audit log calls this write (a route whose action depends on the body refines it,
   * `auditSubject`). Without one the request is an admin read (`GET /tokens`, `GET /audit`):
   * neither logged nor counted against a write rate.
   */
  action?: AuditAction;
  /** Only the admin token may (token management, the audit log, the doctor). */
  adminOnly?: boolean;
  /**
   * The route runs while its audit event is being stored, so its reading and validating goes
   * beside that write; it must await `auditStored(c)` before its first write (the publish
   * pipeline does, `PublishDeps.beforeFirstWrite`). Otherwise the route runs once the event is stored.
   */
  beforeAuditStored?: boolean;
}

const HOW_TO =
  'Send "Authorization: Bearer <token>" with the write token printed by the registry\'s first start ' +
  "(or set REGISTRY_TOKEN), or a publisher token the registry admin minted (agent-tools token create).";

/**
 * Guards a write route: the bearer token must be the admin token or a live publisher token within
 * its write rate (401, 429), and the request is written to the audit log before it writes anything
 * and completed with its outcome after (docs/design/publisher-trust.md). If the log cannot be
 * written the request writes nothing and is answered with that failure: no write goes unrecorded. A token that is expired, revoked or was
 * replaced by a newer one is logged with its refusal; requests with a token the registry never
 * issued are not (anyone could fill the log). The route then checks scope, action and ownership
 * for the tool it touches (`authorizeTool`).
 */
export function requireWriter(deps: WriterDeps, options: WriterOptions): MiddlewareHandler {
  return async (c, next) => {
    // What a token may see is for that caller alone: no cache (CloudFront's included) keeps it (docs/deployment.md).
    c.header("Cache-Control", "private, no-store");
    const token = bearerToken(c);
    const now = new Date();
    const identity = await identify(deps, token, now, options.action !== undefined);
    const admit = () => {
      if ("refusal" in identity) throw identity.refusal;
      if (options.adminOnly && !identity.writer.admin) {
        throw new HttpProblem(
          403,
          "Forbidden",
          `Only the registry's admin token may use ${c.req.method} ${c.req.path}; publisher "${identity.publisher}" cannot.`,
        );
      }
      c.set("writer", identity.writer);
    };
    if (options.action === undefined) {
      admit();
      return next();
    }
    // A write that cannot fit is refused before anything, its audit event included, is stored (507).
    if (!("refusal" in identity)) await deps.space?.assertRoomFor(Number(c.req.header("content-length")) || 0);
    const trail = new AuditTrail(
      deps.trust.audit,
      deps.trust.audit.begin({
        time: now.toISOString(),
        token: identity.publisher,
        action: options.action,
        client: clientAddress(c, deps.config),
        outcome: "pending",
        status: 0,
        ...pathSubject(c),
      }),
      () => c.get("auditSubject"),
    );
    c.set("auditTrail", trail);
    let status = 500;
    let failure: { error: unknown } | undefined;
    try {
      if (!options.beforeAuditStored) await trail.stored();
      admit();
      await next();
      status = c.res.status;
    } catch (error) {
      if (error instanceof HttpProblem) status = error.status;
      failure = { error };
    }
    // An event that could not be stored answers the request (503), whatever the route did: it wrote nothing (auditStored).
    await trail.stored();
    await trail.completeAs(status).catch((error: unknown) => console.error("[registry] audit event left pending:", error));
    if (failure !== undefined) throw failure.error;
  };
}

type Identity = { publisher: string; writer: Writer } | { publisher: string; refusal: HttpProblem };

async function identify(deps: WriterDeps, token: string, now: Date, counted: boolean): Promise<Identity> {
  if (await deps.verifyToken(token)) return { publisher: ADMIN_PUBLISHER, writer: { publisher: ADMIN_PUBLISHER, admin: true } };
  const name = publisherOfToken(token);
  if (name === undefined) throw unauthorized("The write token is not valid for this registry.");
  const result = await deps.trust.tokens.authenticate(name, sha256Hex(token), now, counted ? deps.trust.publisherRate : undefined);
  switch (result.kind) {
    case "unknown":
      throw unauthorized("The write token is not valid for this registry.");
    case "ok":
      return { publisher: name, writer: { publisher: name, admin: false, token: result.token } };
    case "expired":
      return {
        publisher: name,
        refusal: unauthorized(
          `The token of publisher "${name}" expired at ${result.at}; ask the ` +
            `registry admin for a new one (agent-tools token create --name ${name}).`,
        ),
      };
    case "revoked":
      return {
        publisher: name,
        refusal: unauthorized(
          `The token of publisher "${name}" was revoked at ${result.at}; ask the ` +
            `registry admin for a new one (agent-tools token create --name ${name}).`,
        ),
      };
    case "rotated":
      return {
        publisher: name,
        refusal: unauthorized(
          `This is an old token of publisher "${name}": a new one replaced it at ${result.at}; use ` +
            `the new token, or ask the registry admin for one (agent-tools token create --name ${name}).`,
        ),
      };
    case "limited":
      return {
        publisher: name,
        refusal: new HttpProblem(
          429,
          "Too many requests",
          `Publisher "${name}" made more than ${deps.trust.publisherRate.limit} writes this ` +
            `minute (PUBLISHER_WRITES_PER_MINUTE); retry in ${result.retryAfterSeconds} s.`,
          { "Retry-After": String(result.retryAfterSeconds) },
        ),
      };
  }
}

/**
 * The tool (and version) a write route's path names, stored with the pending event: whatever the
 * request leaves half written, the incremental repair finds through it (doctor/incremental-repair.ts).
 */
function pathSubject(c: Context): Pick<AuditEvent, "tool_id" | "version"> {
  const toolId = c.req.param("id");
  if (toolId === undefined || !isToolId(toolId)) return {};
  const version = c.req.param("version");
  return { tool_id: toolId, ...(version === undefined ? {} : { version }) };
}

function bearerToken(c: Context): string {
  const header = c.req.header("authorization");
  if (header === undefined || header.trim() === "") throw unauthorized("This route needs a write token and none was sent.");
  const match = /^Bearer[ \t]+([^\s]+)[ \t]*$/i.exec(header);
  if (!match?.[1]) throw unauthorized('The Authorization header is malformed: expected "Bearer <token>".');
  return match[1];
}

function unauthorized(reason: string): HttpProblem {
  return new HttpProblem(401, "Unauthorized", `${reason} ${HOW_TO}`);
}
