import { sha256Hex } from "../auth/token-verifier.js";
import { isPlainObject } from "../entry/field-types.js";
import { readJsonBody } from "../http/read-json-body.js";
import { HttpProblem } from "../http-problem.js";
import { TokenExistsError, type TokenRecord } from "../storage/token-store.js";
import { publisherNameProblem } from "../trust/publisher-name.js";
import { mintPublisherToken } from "../trust/publisher-token.js";
import { requireWriter } from "../trust/require-writer.js";
import { scopeProblem } from "../trust/token-scope.js";
import { isWriteAction, WRITE_ACTIONS, type WriteAction } from "../auth/write-action.js";
import { auditSubject } from "../trust/writer.js";
import type { RouteModule } from "../route-module.js";

const DEFAULT_EXPIRES_IN_HOURS = 720;
const MAX_EXPIRES_IN_HOURS = 8760;
const FIELDS = ["name", "scope", "actions", "expires_in_hours"];
const EXAMPLE = '{"name": "acme", "scope": ["acme-*"], "actions": ["publish", "yank"], "expires_in_hours": 720}';

/**
 * Publisher tokens (admin only, docs/design/publisher-trust.md): `POST /tokens` mints one (the
 * secret is in that answer only; storage keeps its sha256), `GET /tokens` lists them without
 * secrets, `DELETE /tokens/{name}` revokes one at once.
 */
export const tokensRoute: RouteModule = (app, deps) => {
  app.post("/tokens", requireWriter(deps, { action: "token.create", adminOnly: true }), async (c) => {
    const request = tokenRequest(await readJsonBody(c));
    auditSubject(c, { publisher: request.name });
    const now = new Date();
    const record: TokenRecord = {
      name: request.name,
      scope: request.scope,
      actions: request.actions,
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + request.expiresInHours * 3_600_000).toISOString(),
    };
    const token = mintPublisherToken(request.name);
    try {
      await deps.trust.tokens.create(record, sha256Hex(token));
    } catch (error) {
      if (!(error instanceof TokenExistsError)) throw error;
      throw new HttpProblem(
        409,
        "Token exists",
        `Publisher "${request.name}" has a live token; revoke it first (DELETE ` +
          `/tokens/${request.name}) to mint a new one, or choose another name.`,
      );
    }
    return c.json(
      {
        name: record.name,
        token,
        scope: record.scope,
        actions: record.actions,
        created_at: record.created_at,
        expires_at: record.expires_at,
      },
      201,
    );
  });

  app.get("/tokens", requireWriter(deps, { adminOnly: true }), async (c) => c.json(await deps.trust.tokens.list()));

  app.delete("/tokens/:name", requireWriter(deps, { action: "token.revoke", adminOnly: true }), async (c) => {
    const name = c.req.param("name");
    if (publisherNameProblem(name) !== undefined) throw noToken(name);
    auditSubject(c, { publisher: name });
    const revoked = await deps.trust.tokens.revoke(name, new Date().toISOString());
    if (revoked === undefined) throw noToken(name);
    return c.json({ name, revoked_at: revoked.revoked_at });
  });
};

interface TokenRequest {
  name: string;
  scope: string[];
  actions: WriteAction[];
  expiresInHours: number;
}

function tokenRequest(body: unknown): TokenRequest {
  if (!isPlainObject(body)) throw invalid("the body must be a JSON object");
  const problems: string[] = [];
  const unknown = Object.keys(body).filter((key) => !FIELDS.includes(key));
  if (unknown.length > 0) problems.push(`unknown field ${unknown.map((key) => JSON.stringify(key.slice(0, 40))).join(", ")}`);
  const nameProblem = publisherNameProblem(body.name);
  if (nameProblem !== undefined) problems.push(`name: ${nameProblem}`);
  const scopeIssue = scopeProblem(body.scope);
  if (scopeIssue !== undefined) problems.push(scopeIssue);
  const actions = body.actions;
  if (!Array.isArray(actions) || actions.length === 0 || !actions.every(isWriteAction)) {
    problems.push(`actions must be a non-empty array of ${WRITE_ACTIONS.map((action) => `"${action}"`).join(", ")}`);
  }
  const hours = body.expires_in_hours ?? DEFAULT_EXPIRES_IN_HOURS;
  if (!Number.isSafeInteger(hours) || (hours as number) < 1 || (hours as number) > MAX_EXPIRES_IN_HOURS) {
    problems.push(`expires_in_hours must be a whole number from 1 to ${MAX_EXPIRES_IN_HOURS} (a year)`);
  }
  if (problems.length > 0) throw invalid(problems.join("; "));
  return {
    name: body.name as string,
    scope: [...new Set(body.scope as string[])],
    actions: [...new Set(actions as WriteAction[])],
    expiresInHours: hours as number,
  };
}

function invalid(problem: string): HttpProblem {
  return new HttpProblem(422, "Invalid token request", `${problem}. Send e.g. ${EXAMPLE}.`);
}

function noToken(name: string): HttpProblem {
  return new HttpProblem(
    404,
    "Token not found",
    `No publisher token named ${JSON.stringify(name.slice(0, 70))}; list them with GET /tokens.`,
  );
}
