// The audit log end to end (docs/design/publisher-trust.md, "Audit log"): every write by a known
// token, refused ones included, newest first, paginated with cursors the registry validates.
import { randomBytes } from "node:crypto";
import { QueryCommand } from "@aws-sdk/lib-dynamodb";
import { createDynamoDocumentClient } from "../../../functions/storage/aws-clients.js";
import { EXPIRES_AT_ATTRIBUTE } from "../../../functions/storage/table-schema.js";
import { TRUST_PARTITIONS } from "../../../functions/storage/trust-keys.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../../sdk/src/cli/run-cli.js";
import { EXIT } from "../../../sdk/src/cli/exit-codes.js";
import { fixtureBundle } from "../../support/bundles.js";
import { startTestRegistry, uploadBundle, type TestRegistry } from "../../support/registry.js";

let registry: TestRegistry;
let acme: string;

beforeAll(async () => {
  registry = await startTestRegistry();
  const minted = await post("/tokens", registry.token, { name: "acme", scope: ["acme-*"], actions: ["publish", "update"] });
  acme = minted.token as string;
  expect((await uploadBundle(registry.url, registry.token, (await fixtureBundle("text-stats")).bundle)).status).toBe(200);
  expect(
    (
      await uploadBundle(
        registry.url,
        acme,
        (
          await fixtureBundle("text-stats", { spec: { tool_id: "acme-stats" }, version: "1.2.0" })
        ).bundle,
      )
    ).status,
  ).toBe(200);
  expect(
    (await uploadBundle(registry.url, acme, (await fixtureBundle("text-stats", { spec: { tool_id: "globex-stats" } })).bundle)).status,
  ).toBe(403);
  expect((await put("/tools/acme-stats", acme, { tool_search_description: "by acme" })).status).toBe(200);
  // Never issued: not logged (anyone could fill the log).
  expect(
    (await put("/tools/acme-stats", `at_acme_${randomBytes(32).toString("base64url")}`, { tool_search_description: "x" })).status,
  ).toBe(401);
  expect((await put("/tools/acme-stats", "Bearer-less", { tool_search_description: "x" })).status).toBe(401);
});
afterAll(async () => {
  await registry?.close();
});

async function post(path: string, token: string, body: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(`${registry.url}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return (await response.json()) as Record<string, unknown>;
}

function put(path: string, token: string, body: unknown): Promise<Response> {
  return fetch(`${registry.url}${path}`, {
    method: "PUT",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

async function audit(query = "", token = registry.token) {
  const response = await fetch(`${registry.url}/audit${query}`, { headers: { authorization: `Bearer ${token}` } });
  return {
    status: response.status,
    body: (await response.json()) as { events: Record<string, unknown>[]; next_cursor?: string; detail?: string },
  };
}

describe("GET /audit", () => {
  it("records every write by a known token with its outcome, newest first", async () => {
    const { status, body } = await audit();
    expect(status).toBe(200);
    const events = body.events.map(({ token, action, tool_id, version, outcome, status: code, publisher }) => ({
      token,
      action,
      tool_id,
      version,
      outcome,
      status: code,
      publisher,
    }));
    expect(events).toEqual([
      { token: "acme", action: "update", tool_id: "acme-stats", version: "1.2.0", outcome: "ok", status: 200, publisher: undefined },
      {
        token: "acme",
        action: "publish",
        tool_id: "globex-stats",
        version: "1.0.0",
        outcome: "refused",
        status: 403,
        publisher: undefined,
      },
      { token: "acme", action: "publish", tool_id: "acme-stats", version: "1.2.0", outcome: "ok", status: 200, publisher: undefined },
      { token: "admin", action: "publish", tool_id: "text-stats", version: "1.0.0", outcome: "ok", status: 200, publisher: undefined },
      { token: "admin", action: "token.create", tool_id: undefined, version: undefined, outcome: "ok", status: 201, publisher: "acme" },
    ]);
    for (const event of body.events) {
      expect(event.client).toBe("127.0.0.1");
      expect(Date.now() - Date.parse(event.time as string)).toBeLessThan(120_000);
    }
    const times = body.events.map((event) => event.time as string);
    expect([...times].sort().reverse()).toEqual(times);
  });

  it("stores each event with its expiry, 400 days after it, for the table's time to live", async () => {
    const db = createDynamoDocumentClient(registry.local.config);
    const { Items = [] } = await db.send(
      new QueryCommand({
        TableName: registry.local.config.tableName,
        KeyConditionExpression: "tool_id = :audit",
        ExpressionAttributeValues: { ":audit": TRUST_PARTITIONS.audit },
      }),
    );
    expect(Items.length).toBeGreaterThanOrEqual(5);
    for (const item of Items) {
      expect(item[EXPIRES_AT_ATTRIBUTE], String(item.version)).toBe(Math.floor(Date.parse(String(item.time)) / 1000) + 400 * 86_400);
    }
  });

  it("pages with opaque cursors and refuses cursors it did not hand out", async () => {
    const first = await audit("?limit=2");
    expect(first.body.events).toHaveLength(2);
    expect(first.body.next_cursor).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    const second = await audit(`?limit=2&cursor=${first.body.next_cursor}`);
    const third = await audit(`?limit=2&cursor=${second.body.next_cursor}`);
    const all = (await audit()).body.events;
    expect([...first.body.events, ...second.body.events, ...third.body.events]).toEqual(all);
    expect(third.body.next_cursor).toBeUndefined();

    for (const cursor of [
      "x",
      Buffer.from("#latest").toString("base64url"),
      Buffer.from("text-stats").toString("base64url"),
      // What the log's cursors were before they were signed: the bare key, base64url.
      Buffer.from(`${new Date().toISOString()}#00000000-0000-4000-8000-000000000000`).toString("base64url"),
      "%00",
      "a".repeat(500),
      first.body.next_cursor!.slice(0, -2),
    ]) {
      const answer = await audit(`?cursor=${encodeURIComponent(cursor)}`);
      expect(answer.status, cursor).toBe(400);
      expect(answer.body).toMatchObject({ error: "Invalid cursor", detail: expect.stringMatching(/^The cursor /) });
    }
    for (const limit of ["0", "101", "-1", "1e2", "two", ""]) expect((await audit(`?limit=${limit}`)).status, limit).toBe(400);
  });

  it("is for the admin token only, and reading it is not itself logged", async () => {
    const before = (await audit()).body.events.length;
    expect((await audit("", acme)).status).toBe(403);
    expect((await audit("", "wrong")).status).toBe(401);
    expect((await audit()).body.events.length).toBe(before);
  });

  it("reads through agent-tools audit, following cursors with --all", async () => {
    let out = "";
    let err = "";
    const io = { out: (text: string) => void (out += text), err: (text: string) => void (err += text), cwd: process.cwd() };
    const status = await runCli(["audit", "--limit", "2", "--all", "--json", "--registry", registry.url, "--token", registry.token], io);
    expect(status, err).toBe(EXIT.ok);
    const printed = JSON.parse(out) as { events: unknown[]; next_cursor?: string };
    expect(printed.events).toEqual((await audit()).body.events);
    expect(printed.next_cursor).toBeUndefined();
    out = "";
    expect(await runCli(["audit", "--limit", "1", "--registry", registry.url, "--token", registry.token], io)).toBe(EXIT.ok);
    expect(out).toMatch(/^\S+\tacme\tupdate\tacme-stats@1\.2\.0\tok 200\t127\.0\.0\.1\n$/);
    expect(err).toMatch(/More events: agent-tools audit --cursor /);
  });
});
