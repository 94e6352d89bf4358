// Publisher tokens and ownership end to end (docs/design/publisher-trust.md): minted, listed and
// revoked through the CLI and HTTP, scoped, expiring, rate-limited, and every refusal a clear 4xx
// that leaves storage as it was.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCliCaptured } from "../../sdk/support/captured-cli.js";
import { EXIT } from "../../../sdk/src/cli/exit-codes.js";
import { sha256Hex } from "../../../functions/auth/token-verifier.js";
import { buildBundle, fixtureBundle, readFixtureSpec, zipFiles } from "../../support/bundles.js";
import { startTestRegistry, uploadBundle, type TestRegistry } from "../../support/registry.js";
import { storageSnapshot } from "../storage/storage-snapshot.js";

const WRITES_PER_MINUTE = 8;
let registry: TestRegistry;

beforeAll(async () => {
  registry = await startTestRegistry({ publisherWritesPerMinute: WRITES_PER_MINUTE });
  expect((await uploadBundle(registry.url, registry.token, (await fixtureBundle("text-stats")).bundle)).status).toBe(200);
});
afterAll(async () => {
  await registry?.close();
});

function cli(...args: string[]) {
  return runCliCaptured([...args, "--registry", registry.url], process.cwd());
}

async function request(method: string, path: string, token: string | undefined, body?: unknown) {
  const response = await fetch(`${registry.url}${path}`, {
    method,
    headers: {
      ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) }),
  });
  return {
    status: response.status,
    headers: response.headers,
    body: (await response.json()) as Record<string, unknown> & { detail?: string },
  };
}

/** A publisher token minted over HTTP with the admin token. */
async function mint(name: string, scope: string[], actions: string[], extra: Record<string, unknown> = {}): Promise<string> {
  const minted = await request("POST", "/tokens", registry.token, { name, scope, actions, ...extra });
  expect(minted.status, JSON.stringify(minted.body)).toBe(201);
  return minted.body.token as string;
}

const bundleOf = async (toolId: string, version = "1.0.0") =>
  (await fixtureBundle("text-stats", { spec: { tool_id: toolId }, version })).bundle;

describe("minting, listing and revoking with the CLI", () => {
  it("creates a token once, lists it without its secret, and revokes it", async () => {
    const created = await cli(
      "token",
      "create",
      "--name",
      "cli-acme",
      "--scope",
      "cli-acme-*,cli-shared",
      "--actions",
      "publish,yank",
      "--expires",
      "2d",
      "--json",
      "--token",
      registry.token,
    );
    expect(created.status, created.err).toBe(EXIT.ok);
    const minted = JSON.parse(created.out) as Record<string, unknown>;
    expect(minted).toMatchObject({ name: "cli-acme", scope: ["cli-acme-*", "cli-shared"], actions: ["publish", "yank"] });
    expect(minted.token).toMatch(/^at_cli-acme_[A-Za-z0-9_-]{43}$/);
    expect(Date.parse(minted.expires_at as string) - Date.parse(minted.created_at as string)).toBe(48 * 3_600_000);

    const listed = await cli("token", "list", "--json", "--token", registry.token);
    const tokens = JSON.parse(listed.out) as Record<string, unknown>[];
    const entry = tokens.find((token) => token.name === "cli-acme");
    expect(entry).toMatchObject({ name: "cli-acme", actions: ["publish", "yank"] });
    expect(listed.out).not.toContain(minted.token as string);
    expect(listed.out).not.toContain(sha256Hex(minted.token as string));

    expect((await uploadBundle(registry.url, minted.token as string, await bundleOf("cli-acme-one"))).status).toBe(200);
    const revoked = await cli("token", "revoke", "cli-acme", "--token", registry.token);
    expect(revoked.out).toMatch(/^Revoked the token of cli-acme/);
    const refused = await uploadBundle(registry.url, minted.token as string, await bundleOf("cli-acme-one", "1.1.0"));
    expect(refused.status).toBe(401);
    expect(refused.body.detail).toMatch(/publisher "cli-acme" was revoked at .*ask the registry admin/);
  });

  it("refuses a publisher token for token management, the audit log and the doctor", async () => {
    const token = await mint("nosy", ["nosy-*"], ["publish"]);
    const created = await cli("token", "create", "--name", "other", "--scope", "x", "--actions", "publish", "--token", token);
    expect(created.status).toBe(EXIT.failed);
    expect(created.err).toMatch(
      /^agent-tools: the registry refused the token passed with --token \(or AGENT_TOOLS_TOKEN\): Only the registry's admin token may use POST \/tokens/,
    );
    for (const [method, path] of [
      ["GET", "/tokens"],
      ["DELETE", "/tokens/nosy"],
      ["GET", "/audit"],
      ["POST", "/registry/doctor"],
    ] as const) {
      expect((await request(method, path, token)).status, `${method} ${path}`).toBe(403);
    }
    expect((await request("GET", "/tokens", undefined)).status).toBe(401);
    expect((await request("GET", "/tokens", `at_nosy_${randomBytes(32).toString("base64url")}`)).status).toBe(401);
  });
});

describe("what a publisher token may do", () => {
  it("publishes in its scope and owns what it published first", async () => {
    const acme = await mint("acme", ["acme-*"], ["publish", "update", "delete"]);
    expect((await uploadBundle(registry.url, acme, await bundleOf("acme-stats"))).status).toBe(200);
    const entry = await request("GET", "/tools/acme-stats", undefined);
    expect(entry.body.owner).toBe("acme");
    expect((await request("PUT", "/tools/acme-stats", acme, { tool_search_description: "Counts words, by acme" })).status).toBe(200);

    const before = await storageSnapshot(registry.local);
    const outOfScope = await uploadBundle(registry.url, acme, await bundleOf("globex-stats"));
    expect(outOfScope.status).toBe(403);
    expect(outOfScope.body.detail).toMatch(/"globex-stats" is outside the scope of publisher "acme" \(acme-\*\)/);
    const putOutside = await request("PUT", "/tools/text-stats", acme, { tool_search_description: "mine now" });
    expect(putOutside.status).toBe(403);
    expect(await storageSnapshot(registry.local)).toEqual(before);
  });

  it("refuses another publisher's id with who to ask, and ids the admin published before tokens", async () => {
    const acme = await mint("acme-two", ["acme2-*"], ["publish"]);
    const everything = await mint("globex", ["*"], ["publish", "update", "delete", "yank", "deprecate"]);
    expect((await uploadBundle(registry.url, acme, await bundleOf("acme2-stats"))).status).toBe(200);
    const before = await storageSnapshot(registry.local);
    const taken = await uploadBundle(registry.url, everything, await bundleOf("acme2-stats", "2.0.0"));
    expect(taken.status).toBe(403);
    expect(taken.body.detail).toMatch(
      /Tool "acme2-stats" belongs to publisher "acme-two", not "globex"; ask the registry admin or acme-two/,
    );
    expect((await request("DELETE", "/tools/acme2-stats", everything)).status).toBe(403);
    const legacy = await uploadBundle(registry.url, everything, await bundleOf("text-stats", "9.0.0"));
    expect(legacy.status).toBe(403);
    expect(legacy.body.detail).toMatch(/belongs to publisher "admin"/);
    expect(await storageSnapshot(registry.local)).toEqual(before);
    // The admin acts on every id, as the one write token always could; the owner stays.
    expect((await uploadBundle(registry.url, registry.token, await bundleOf("acme2-stats", "2.0.0"))).status).toBe(200);
    expect((await request("GET", "/tools/acme2-stats", undefined)).body).toMatchObject({ version: "2.0.0", owner: "acme-two" });
  });

  it(
    "stores nothing of a release whose bytes are new when its admission " +
      "refuses it, although the archive is written beside the admission",
    async () => {
      const owner = await mint("fresh-owner", ["fresh-*"], ["publish"]);
      const other = await mint("fresh-other", ["*"], ["publish"]);
      expect((await uploadBundle(registry.url, owner, await bundleOf("fresh-tool"))).status).toBe(200);
      const before = await storageSnapshot(registry.local);
      for (let attempt = 0; attempt < 3; attempt++) {
        // Code bytes no stored version has: the archive write beside the admission is a new object.
        const toolZip = zipFiles({
          "code/function.py": `def unseen():\n    return ${attempt}\n`,
          "code/nonce.txt": randomBytes(16).toString("hex"),
        });
        const spec = { ...readFixtureSpec("text-stats"), tool_id: "fresh-tool", tool_metadata: { version: `2.${attempt}.0` } };
        const refused = await uploadBundle(registry.url, other, buildBundle({ spec, toolZip, toolMd: "# refused\n" }));
        expect(refused.status).toBe(403);
        expect(refused.body.detail).toMatch(/belongs to publisher "fresh-owner"/);
      }
      expect(await storageSnapshot(registry.local)).toEqual(before);
    },
  );

  it("keeps an id the admin published first for the admin, also once the tool is deleted", async () => {
    const anyone = await mint("takeover", ["*"], ["publish"]);
    expect((await uploadBundle(registry.url, registry.token, await bundleOf("admin-first"))).status).toBe(200);
    expect((await request("GET", "/tools/admin-first", undefined)).body.owner).toBe("admin");
    expect((await request("DELETE", "/tools/admin-first", registry.token)).status).toBe(200);
    const taken = await uploadBundle(registry.url, anyone, await bundleOf("admin-first"));
    expect(taken.status).toBe(403);
    expect(taken.body.detail).toMatch(/Tool "admin-first" belongs to publisher "admin", not "takeover"/);
  });

  it("needs the action: a publish-only token cannot update or delete", async () => {
    const token = await mint("pubonly", ["pubonly-*"], ["publish"]);
    expect((await uploadBundle(registry.url, token, await bundleOf("pubonly-tool"))).status).toBe(200);
    const put = await request("PUT", "/tools/pubonly-tool", token, { tool_search_description: "x" });
    expect(put.status).toBe(403);
    expect(put.body.detail).toMatch(/may publish, not update; ask the registry admin for a token with the "update" action/);
    expect((await request("DELETE", "/tools/pubonly-tool", token)).status).toBe(403);
    expect((await request("GET", "/tools/pubonly-tool", undefined)).status).toBe(200);
  });

  it("gives an id to exactly one of two publishers racing to publish it first", async () => {
    const [first, second] = await Promise.all([mint("racer-a", ["race-*"], ["publish"]), mint("racer-b", ["race-*"], ["publish"])]);
    const [a, b] = await Promise.all([
      uploadBundle(registry.url, first, await bundleOf("race-tool", "1.0.0")),
      uploadBundle(registry.url, second, await bundleOf("race-tool", "1.1.0")),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 403]);
    const winner = a.status === 200 ? "racer-a" : "racer-b";
    const entry = await request("GET", "/tools/race-tool", undefined);
    expect(entry.body.owner).toBe(winner);
    const versions = (await (await fetch(`${registry.url}/tools/race-tool/versions`)).json()) as unknown[];
    expect(versions).toHaveLength(1);
  });

  it("refuses an out-of-scope large upload at completion and drops the incoming copy", async () => {
    const token = await mint("large", ["large-*"], ["publish"]);
    const ticket = await request("POST", "/tools/uploads", token, {});
    expect(ticket.status).toBe(201);
    expect((await fetch(ticket.body.uploadUrl as string, { method: "PUT", body: await bundleOf("not-large") })).status).toBe(200);
    const completed = await request("POST", new URL(ticket.body.completeUrl as string).pathname, token);
    expect(completed.status).toBe(403);
    expect((await request("POST", new URL(ticket.body.completeUrl as string).pathname, token)).status).toBe(404);
    expect((await request("GET", "/tools/not-large", undefined)).status).toBe(404);
    const noPublish = await mint("yanker", ["large-*"], ["yank"]);
    expect((await request("POST", "/tools/uploads", noPublish, {})).status).toBe(403);
  });
});

describe("token lifetime", () => {
  it("refuses an expired token with when it expired, and rotates a name once its token is revoked or expired", async () => {
    const expired = `at_expiring_${randomBytes(32).toString("base64url")}`;
    const past = new Date(Date.now() - 3_600_000).toISOString();
    await registry.local.deps.trust.tokens.create(
      { name: "expiring", scope: ["exp-*"], actions: ["publish"], created_at: past, expires_at: past },
      sha256Hex(expired),
    );
    const refused = await uploadBundle(registry.url, expired, await bundleOf("exp-tool"));
    expect(refused.status).toBe(401);
    expect(refused.body.detail).toContain(`The token of publisher "expiring" expired at ${past}`);
    const cli401 = await cli("delete", "exp-tool", "--yes", "--token", expired);
    expect(cli401.err).toContain(`expired at ${past}`);

    const rotated = await mint("expiring", ["exp-*"], ["publish"]);
    expect((await uploadBundle(registry.url, rotated, await bundleOf("exp-tool"))).status).toBe(200);
    const again = await request("POST", "/tokens", registry.token, { name: "expiring", scope: ["exp-*"], actions: ["publish"] });
    expect(again.status).toBe(409);
    expect(again.body.detail).toMatch(/has a live token; revoke it first/);
    expect((await request("DELETE", "/tokens/expiring", registry.token)).status).toBe(200);
    const renewed = await mint("expiring", ["exp-*"], ["publish"]);
    expect((await uploadBundle(registry.url, renewed, await bundleOf("exp-tool", "1.1.0"))).status).toBe(200);
    expect((await uploadBundle(registry.url, rotated, await bundleOf("exp-tool", "1.2.0"))).status).toBe(401);
    expect((await request("GET", "/tools/exp-tool", undefined)).body).toMatchObject({ owner: "expiring", version: "1.1.0" });
    expect((await request("DELETE", "/tokens/nobody", registry.token)).status).toBe(404);
  });

  it("answers 429 with Retry-After past the write rate, for that token only", async () => {
    const token = await mint("busy", ["busy-*"], ["update"]);
    const other = await mint("calm", ["calm-*"], ["update"]);
    // Start early in a minute, so every write below falls into the same one-minute window.
    const intoMinute = Date.now() % 60_000;
    if (intoMinute > 40_000) await new Promise((done) => setTimeout(done, 60_100 - intoMinute));
    const answers = [];
    for (let write = 0; write <= WRITES_PER_MINUTE; write++)
      answers.push(await request("PUT", "/tools/busy-nothing", token, { tool_search_description: "x" }));
    expect(answers.map((answer) => answer.status)).toEqual([...Array<number>(WRITES_PER_MINUTE).fill(404), 429]);
    const limited = answers.at(-1)!;
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(Number(limited.headers.get("retry-after"))).toBeLessThanOrEqual(60);
    expect(limited.body).toMatchObject({ error: "Too many requests" });
    expect(limited.body.detail).toMatch(/more than 8 writes this minute/);
    expect((await request("PUT", "/tools/calm-nothing", other, { tool_search_description: "x" })).status).toBe(404);
    expect(
      (await request("PUT", "/tools/text-stats", registry.token, { tool_search_description: "the admin is not limited" })).status,
    ).toBe(200);
  });

  it("counts writes per window in storage, shared by every instance", async () => {
    const tokens = registry.local.deps.trust.tokens;
    const secret = `at_windowed_${randomBytes(32).toString("base64url")}`;
    const now = new Date("2030-01-01T00:00:10Z");
    await tokens.create(
      {
        name: "windowed",
        scope: ["w-*"],
        actions: ["publish"],
        created_at: "2029-12-31T00:00:00.000Z",
        expires_at: "2031-01-01T00:00:00.000Z",
      },
      sha256Hex(secret),
    );
    const rate = { limit: 3, windowMs: 60_000 };
    const kinds = [];
    for (let write = 0; write < 4; write++) kinds.push((await tokens.authenticate("windowed", sha256Hex(secret), now, rate)).kind);
    expect(kinds).toEqual(["ok", "ok", "ok", "limited"]);
    expect(await tokens.authenticate("windowed", sha256Hex(secret), now, rate)).toEqual({ kind: "limited", retryAfterSeconds: 50 });
    expect((await tokens.authenticate("windowed", sha256Hex(secret), new Date("2030-01-01T00:01:00Z"), rate)).kind).toBe("ok");
    expect((await tokens.authenticate("windowed", sha256Hex(`${secret}x`), now, rate)).kind).toBe("unknown");
    const concurrent = await Promise.all(
      Array.from({ length: 6 }, () => tokens.authenticate("windowed", sha256Hex(secret), new Date("2030-01-01T00:02:00Z"), rate)),
    );
    expect(concurrent.filter((result) => result.kind === "ok")).toHaveLength(3);
  });
});

describe("bad token requests", () => {
  it("are 422 with what to fix, and store nothing", async () => {
    const before = await storageSnapshot(registry.local);
    const cases: [unknown, RegExp][] = [
      [{ name: "admin", scope: ["a"], actions: ["publish"] }, /"admin" is the registry's own admin token/],
      [{ name: "Acme Corp", scope: ["a"], actions: ["publish"] }, /name: it must be 1-63 lowercase letters/],
      [{ name: "ok", scope: [], actions: ["publish"] }, /scope must be a non-empty array/],
      [{ name: "ok", scope: ["../etc"], actions: ["publish"] }, /scope pattern "..\/etc" is not a tool id/],
      [{ name: "ok", scope: ["a*b"], actions: ["publish"] }, /scope pattern "a\*b" is not a tool id/],
      [{ name: "ok", scope: ["a"], actions: ["fly"] }, /actions must be a non-empty array of "publish"/],
      [{ name: "ok", scope: ["a"], actions: ["publish"], expires_in_hours: 0 }, /expires_in_hours must be a whole number from 1 to 8760/],
      [{ name: "ok", scope: ["a"], actions: ["publish"], expires_in_hours: 1e9 }, /expires_in_hours/],
      [{ name: "ok", scope: ["a"], actions: ["publish"], admin: true }, /unknown field "admin"/],
      [["name"], /the body must be a JSON object/],
    ];
    for (const [body, detail] of cases) {
      const answer = await request("POST", "/tokens", registry.token, body);
      expect(answer.status, JSON.stringify(body)).toBe(422);
      expect(answer.body.detail).toMatch(detail);
    }
    expect((await request("POST", "/tokens", registry.token, "{not json")).status).toBe(400);
    expect(await storageSnapshot(registry.local)).toEqual(before);
    const usage = await cli("token", "create", "--name", "x", "--scope", "x", "--actions", "publish,fly", "--token", registry.token);
    expect(usage.status).toBe(EXIT.usage);
    expect(usage.err).toMatch(/not: fly/);
  });
});
