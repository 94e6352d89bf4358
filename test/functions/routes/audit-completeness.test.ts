// The audit log is complete (docs/design/publisher-trust.md, "Audit log"): every write attempt by a
// presented token the registry issued, current, revoked, expired or replaced by a newer one, is
// recorded with one of the documented actions and its outcome.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sha256Hex } from "../../../functions/auth/token-verifier.js";
import { MAX_JSON_BODY_DEPTH } from "../../../functions/http/read-json-body.js";
import { AUDIT_ACTIONS } from "../../../functions/trust/audit-actions.js";
import { mintPublisherToken } from "../../../functions/trust/publisher-token.js";
import { fixtureBundle } from "../../support/bundles.js";
import { startTestRegistry, uploadBundle, type TestRegistry } from "../../support/registry.js";
import { readPage } from "../../docs/support/markdown-pages.js";

let registry: TestRegistry;

interface Event {
  token: string;
  action: string;
  tool_id?: string;
  version?: string;
  outcome: string;
  status: number;
}

async function send(method: string, path: string, token: string, body?: string) {
  const response = await fetch(`${registry.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    ...(body === undefined ? {} : { body }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function mint(name: string, actions: string[]): Promise<string> {
  const minted = await send("POST", "/tokens", registry.token, JSON.stringify({ name, scope: [`${name}-*`], actions }));
  expect(minted.status, JSON.stringify(minted.body)).toBe(201);
  return String(minted.body.token);
}

/** The newest `count` events, oldest first (the order they were sent in). */
async function lastEvents(count: number): Promise<Event[]> {
  const page = await send("GET", `/audit?limit=${count}`, registry.token);
  return (page.body.events as Event[]).reverse();
}

beforeAll(async () => {
  registry = await startTestRegistry();
});
afterAll(async () => {
  await registry?.close();
});

describe("the audit log", () => {
  it("documents exactly the actions routes can record", () => {
    const sentence = /`action` is one of ([^(]+)\(/.exec(readPage("docs/design/publisher-trust.md"))?.[1] ?? "";
    const documented = [...sentence.matchAll(/`([^`]+)`/g)].map((match) => match[1]);
    expect(documented.sort()).toEqual(Object.keys(AUDIT_ACTIONS).sort());
  });

  it("names every status change with a documented action, those refused before their body was read included", async () => {
    const acme = await mint("acme", ["publish", "deprecate"]);
    const { bundle } = await fixtureBundle("text-stats", { spec: { tool_id: "acme-tool" } });
    expect((await uploadBundle(registry.url, acme, bundle)).status).toBe(200);
    const deep = `{"status":${"[".repeat(MAX_JSON_BODY_DEPTH)}1${"]".repeat(MAX_JSON_BODY_DEPTH)}}`;
    const attempts = [
      ["/tools/acme-tool/versions/1.0.0", "{ not json", 400, "status-change"],
      ["/tools/acme-tool/versions/1.0.0", '{"status":"retired"}', 422, "status-change"],
      ["/tools/acme-tool/versions/1.0.0", deep, 422, "status-change"],
      ["/tools/acme-tool/versions/not-a-version", '{"status":"active"}', 400, "status-change"],
      ["/tools/%23catalog/versions/1.0.0", '{"status":"active"}', 400, "status-change"],
      ["/tools/acme-tool/versions/1.0.0", '{"status":"yanked","reason":"no yank action"}', 403, "yank"],
      ["/tools/acme-tool/versions/1.0.0", '{"status":"deprecated","message":"use 2.x"}', 200, "deprecate"],
    ] as const;
    for (const [path, body, status] of attempts) expect((await send("PATCH", path, acme, body)).status, body).toBe(status);
    const events = await lastEvents(attempts.length);
    expect(events.map(({ action, outcome, status }) => ({ action, outcome, status }))).toEqual(
      attempts.map(([, , status, action]) => ({ action, outcome: status < 400 ? "ok" : "refused", status })),
    );
    for (const event of events) expect(Object.keys(AUDIT_ACTIONS)).toContain(event.action);
  });

  it("recognises the secret of a replaced token and records its attempts, like a revoked or expired token's", async () => {
    const old = await mint("rotor", ["update"]);
    expect((await send("DELETE", "/tokens/rotor", registry.token)).status).toBe(200);
    const revokedAttempt = await send("PUT", "/tools/rotor-x", old, '{"tool_search_description":"x"}');
    expect(revokedAttempt.status).toBe(401);
    expect(String(revokedAttempt.body.detail)).toMatch(/was revoked at/);
    // Rotated: the same publisher gets a new token, and the item that held the old hash now holds the new one.
    const current = await mint("rotor", ["update"]);
    const rotatedAttempt = await send("PUT", "/tools/rotor-x", old, '{"tool_search_description":"x"}');
    expect(rotatedAttempt.status).toBe(401);
    expect(String(rotatedAttempt.body.detail)).toMatch(/an old token of publisher "rotor": a new one replaced it at/);
    expect((await send("PUT", "/tools/rotor-x", current, '{"tool_search_description":"x"}')).status).toBe(404);
    // Expired: stored with its expiry passed, as time would leave it.
    const expired = mintPublisherToken("lapsed");
    await registry.local.deps.trust.tokens.create(
      {
        name: "lapsed",
        scope: ["lapsed-*"],
        actions: ["update"],
        created_at: "2020-01-01T00:00:00.000Z",
        expires_at: "2020-01-31T00:00:00.000Z",
      },
      sha256Hex(expired),
    );
    expect((await send("PUT", "/tools/lapsed-x", expired, '{"tool_search_description":"x"}')).status).toBe(401);
    // Never issued: not recorded.
    expect((await send("PUT", "/tools/rotor-x", mintPublisherToken("rotor"), '{"tool_search_description":"x"}')).status).toBe(401);

    const events = (await lastEvents(6)).map(({ token, action, outcome, status }) => ({ token, action, outcome, status }));
    expect(events).toEqual([
      { token: "admin", action: "token.revoke", outcome: "ok", status: 200 },
      { token: "rotor", action: "update", outcome: "refused", status: 401 },
      { token: "admin", action: "token.create", outcome: "ok", status: 201 },
      { token: "rotor", action: "update", outcome: "refused", status: 401 },
      { token: "rotor", action: "update", outcome: "refused", status: 404 },
      { token: "lapsed", action: "update", outcome: "refused", status: 401 },
    ]);
  });
});
