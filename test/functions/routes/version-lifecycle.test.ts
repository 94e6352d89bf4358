// One version's lifecycle end to end (docs/design/publisher-trust.md, "Version lifecycle"):
// deprecate, yank, restore and delete through HTTP and the CLI; latest, listings and search skip
// yanked versions; refusals change nothing; crashes between steps and concurrent publishes converge.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCliCaptured } from "../../sdk/support/captured-cli.js";
import { EXIT } from "../../../sdk/src/cli/exit-codes.js";
import { withStatus } from "../../../functions/entry/status-change.js";
import { fixtureBundle } from "../../support/bundles.js";
import { startTestRegistry, uploadBundle, type TestRegistry } from "../../support/registry.js";
import { storageSnapshot } from "../storage/storage-snapshot.js";

let registry: TestRegistry;

beforeAll(async () => {
  registry = await startTestRegistry();
});
afterAll(async () => {
  await registry?.close();
});

function cli(...args: string[]) {
  return runCliCaptured([...args, "--registry", registry.url, "--token", registry.token], process.cwd());
}

async function call(method: string, path: string, body?: unknown, token = registry.token) {
  const response = await fetch(`${registry.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return {
    status: response.status,
    headers: response.headers,
    body: (await response.json()) as Record<string, unknown> & { detail?: string },
  };
}

const read = async (path: string) => {
  const response = await fetch(`${registry.url}${path}`);
  return { status: response.status, body: (await response.json()) as Record<string, unknown> & { detail?: string } };
};
const versionsOf = async (toolId: string, query = "") =>
  ((await read(`/tools/${toolId}/versions${query}`)).body as unknown as Record<string, unknown>[]).map(
    (entry) => `${String(entry.version)}:${String(entry.status)}`,
  );
const latestOf = async (toolId: string) => (await read(`/tools/${toolId}`)).body.version;

async function publish(toolId: string, ...versions: string[]): Promise<void> {
  for (const version of versions) {
    const answer = await uploadBundle(
      registry.url,
      registry.token,
      (await fixtureBundle("text-stats", { spec: { tool_id: toolId, tool_search_description: `Counts words ${toolId}` }, version })).bundle,
    );
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  }
}

/** Every view of "latest" agrees: the entry, the listing, search and query/by-tag. */
async function expectLatestEverywhere(toolId: string, version: string | undefined): Promise<void> {
  const latest = await read(`/tools/${toolId}`);
  if (version === undefined) expect(latest.status).toBe(404);
  else expect(latest.body.version).toBe(version);
  const listed = ((await read(`/tools?limit=100`)).body as unknown as Record<string, unknown>[]).find((entry) => entry.tool_id === toolId);
  expect(listed?.version).toBe(version);
  const tagged = ((await read(`/tools/query/by-tag?tag=nlp`)).body as unknown as Record<string, unknown>[]).find(
    (entry) => entry.tool_id === toolId,
  );
  expect(tagged?.version).toBe(version);
}

describe("yank, deprecate and restore", () => {
  it("yanked versions leave latest, listings and search; exact pins still resolve and download", async () => {
    await publish("life", "1.0.0", "1.1.0", "2.0.0");
    const yanked = await cli("yank", "life@2.0.0", "--reason", "2.0.0 deletes the input file");
    expect(yanked.status, yanked.err).toBe(EXIT.ok);
    expect(yanked.out).toBe("life@2.0.0 is now yanked: 2.0.0 deletes the input file\n");
    expect(await latestOf("life")).toBe("1.1.0");
    await expectLatestEverywhere("life", "1.1.0");
    expect(await versionsOf("life")).toEqual(["1.1.0:active", "1.0.0:active"]);
    expect(await versionsOf("life", "?include_yanked=true")).toEqual(["2.0.0:yanked", "1.1.0:active", "1.0.0:active"]);
    const pinned = await read("/tools/life/versions/2.0.0");
    expect(pinned.body).toMatchObject({ status: "yanked", status_message: "2.0.0 deletes the input file", version: "2.0.0" });
    expect((await fetch(`${registry.url}/tools/life/versions/2.0.0/archive`)).status).toBe(200);
    const latestArchive = await fetch(`${registry.url}/tools/life/archive`);
    await latestArchive.arrayBuffer();
    expect(latestArchive.headers.get("etag")).toBe(`"${String((await read("/tools/life/versions/1.1.0")).body.tool_archive_sha256)}"`);
    expect((await read("/tools/life/versions?include_yanked=maybe")).status).toBe(400);
    // Search follows the catalog off the request path: give it a moment, then only 1.1.0 is found.
    let found: unknown[] = [];
    for (let tries = 0; tries < 50; tries++) {
      const results = (await read("/tools/search?q=life")).body.results as Record<string, unknown>[];
      found = results.filter((hit) => hit.tool_id === "life").map((hit) => hit.version);
      if (found.length === 1 && found[0] === "1.1.0") break;
      await new Promise((done) => setTimeout(done, 100));
    }
    expect(found).toEqual(["1.1.0"]);
  });

  it("deprecated versions stay latest with their message; --undo makes versions active again", async () => {
    const deprecated = await cli("deprecate", "life@1.1.0", "--message", "use 2.x", "--json");
    expect(JSON.parse(deprecated.out)).toMatchObject({ version: "1.1.0", status: "deprecated", status_message: "use 2.x" });
    expect((await read("/tools/life")).body).toMatchObject({ version: "1.1.0", status: "deprecated", status_message: "use 2.x" });
    const before = (await read("/tools/life/versions/1.1.0")).body.updated_at as string;
    expect(Date.parse(before)).toBeGreaterThan(Date.parse((await read("/tools/life/versions/1.0.0")).body.updated_at as string));

    expect((await cli("yank", "life@2.0.0", "--undo")).out).toBe("life@2.0.0 is now active\n");
    await expectLatestEverywhere("life", "2.0.0");
    const restored = (await read("/tools/life")).body;
    expect(restored.status).toBe("active");
    expect(restored.status_message).toBeUndefined();
  });

  it("answers 404 with how to pin when every version is yanked, and comes back when one is restored", async () => {
    await publish("all-gone", "1.0.0", "1.1.0");
    for (const version of ["1.1.0", "1.0.0"])
      expect((await call("PATCH", `/tools/all-gone/versions/${version}`, { status: "yanked", reason: "compromised" })).status).toBe(200);
    const gone = await read("/tools/all-gone");
    expect(gone.status).toBe(404);
    expect(gone.body.detail).toMatch(/Every version of "all-gone" is yanked, so it has no latest version; pin one exactly/);
    expect(await versionsOf("all-gone")).toEqual([]);
    expect((await read("/tools/all-gone/versions")).status).toBe(200);
    await expectLatestEverywhere("all-gone", undefined);
    expect((await read("/tools/all-gone/versions/1.0.0")).body.status).toBe("yanked");
    expect((await call("PATCH", "/tools/all-gone/versions/1.0.0", { status: "active" })).status).toBe(200);
    await expectLatestEverywhere("all-gone", "1.0.0");
  });
});

describe("deleting one version", () => {
  it("moves latest to the next highest, keeps the others, and lets the version be published again", async () => {
    await publish("trim", "1.0.0", "1.5.0", "3.0.0");
    const deleted = await cli("delete", "trim@3.0.0", "--yes", "--json");
    expect(JSON.parse(deleted.out)).toEqual({ deleted: "trim@3.0.0" });
    await expectLatestEverywhere("trim", "1.5.0");
    expect((await read("/tools/trim/versions/3.0.0")).status).toBe(404);
    expect(await versionsOf("trim", "?include_yanked=true")).toEqual(["1.5.0:active", "1.0.0:active"]);
    expect((await call("DELETE", "/tools/trim/versions/1.0.0")).body).toEqual({
      message: "Version deleted successfully",
      tool_id: "trim",
      version: "1.0.0",
    });
    await expectLatestEverywhere("trim", "1.5.0");
    await publish("trim", "3.0.0");
    await expectLatestEverywhere("trim", "3.0.0");
    // Deleting the last versions removes the tool.
    for (const version of ["3.0.0", "1.5.0"]) expect((await call("DELETE", `/tools/trim/versions/${version}`)).status).toBe(200);
    expect((await read("/tools/trim")).status).toBe(404);
    expect((await read("/tools/trim/versions")).status).toBe(404);
    await expectLatestEverywhere("trim", undefined);
  });
});

describe("bad lifecycle requests", () => {
  it("are clear 4xx answers that change nothing", async () => {
    await publish("steady", "1.0.0");
    const before = await storageSnapshot(registry.local);
    const cases: [string, string, unknown, number, RegExp][] = [
      ["PATCH", "/tools/steady/versions/9.9.9", { status: "yanked", reason: "x" }, 404, /has no version "9.9.9"/],
      ["PATCH", "/tools/nothing/versions/1.0.0", { status: "yanked", reason: "x" }, 404, /has no version/],
      ["PATCH", "/tools/steady/versions/1.0.0", { status: "yanked" }, 422, /a yanked version needs a "reason"/],
      ["PATCH", "/tools/steady/versions/1.0.0", { status: "deprecated", message: "   " }, 422, /a deprecated version needs a "message"/],
      [
        "PATCH",
        "/tools/steady/versions/1.0.0",
        { status: "deprecated", reason: "wrong field" },
        422,
        /"reason" is not allowed with status "deprecated"/,
      ],
      ["PATCH", "/tools/steady/versions/1.0.0", { status: "gone", reason: "x" }, 422, /status must be "active", "deprecated" or "yanked"/],
      ["PATCH", "/tools/steady/versions/1.0.0", { status: "yanked", reason: "x".repeat(1001) }, 422, /at most 1000/],
      ["PATCH", "/tools/steady/versions/1.0.0", ["yanked"], 422, /must be a JSON object/],
      ["PATCH", "/tools/steady/versions/latest", { status: "yanked", reason: "x" }, 400, /is not a semantic version/],
      ["PATCH", "/tools/%23catalog/versions/1.0.0", { status: "yanked", reason: "x" }, 400, /is not a tool id/],
      ["DELETE", "/tools/steady/versions/2.0.0", undefined, 404, /has no version "2.0.0"/],
      ["DELETE", "/tools/steady/versions/%23latest", undefined, 400, /is not a semantic version/],
    ];
    for (const [method, path, body, status, detail] of cases) {
      const answer = await call(method, path, body);
      expect(answer.status, `${method} ${path} ${JSON.stringify(body)}`).toBe(status);
      expect(answer.body.detail).toMatch(detail);
    }
    expect(await storageSnapshot(registry.local)).toEqual(before);
    expect((await read("/tools/steady")).body.status).toBe("active");

    const missing = await cli("yank", "steady@9.9.9", "--reason", "x");
    expect(missing.status).toBe(EXIT.failed);
    expect(missing.err).toMatch(/has no version 9\.9\.9; `agent-tools versions steady` lists its versions/);
    const noReason = await cli("yank", "steady@1.0.0");
    expect(noReason.status).toBe(EXIT.usage);
    expect(noReason.err).toMatch(/yank needs --reason "<why>"/);
    expect((await cli("deprecate", "steady", "--message", "x")).err).toMatch(/names no version: write id@version/);
    expect(await storageSnapshot(registry.local)).toEqual(before);
  });

  it("needs the token's yank, deprecate or delete action, within its scope", async () => {
    await publish("perm-tool", "1.0.0", "1.1.0");
    const minted = await call("POST", "/tokens", { name: "perm", scope: ["perm-*"], actions: ["deprecate"] });
    const token = minted.body.token as string;
    // The admin published perm-tool before: it belongs to admin, so even the right action is refused.
    expect((await call("PATCH", "/tools/perm-tool/versions/1.0.0", { status: "deprecated", message: "old" }, token)).body.detail).toMatch(
      /belongs to publisher "admin"/,
    );
    const own = (await call("POST", "/tokens", { name: "perm-own", scope: ["permown-*"], actions: ["publish", "deprecate"] })).body
      .token as string;
    const uploaded = await uploadBundle(
      registry.url,
      own,
      (await fixtureBundle("text-stats", { spec: { tool_id: "permown-tool" }, version: "1.0.0" })).bundle,
    );
    expect(uploaded.status).toBe(200);
    expect((await call("PATCH", "/tools/permown-tool/versions/1.0.0", { status: "deprecated", message: "old" }, own)).status).toBe(200);
    const yank = await call("PATCH", "/tools/permown-tool/versions/1.0.0", { status: "yanked", reason: "bad" }, own);
    expect(yank.status).toBe(403);
    expect(yank.body.detail).toMatch(/may publish, deprecate, not yank/);
    expect((await call("DELETE", "/tools/permown-tool/versions/1.0.0", undefined, own)).status).toBe(403);
    expect((await call("PATCH", "/tools/permown-tool/versions/1.0.0", { status: "active" }, own)).status).toBe(200);
  });
});

describe("crash safety and concurrency", () => {
  it("a delete cut short after its first step is hidden at once and finished by a retry or the doctor", async () => {
    await publish("cut", "1.0.0", "2.0.0", "3.0.0");
    const { entries } = registry.local.deps;
    expect(await entries.deletion.markDeleting("cut", "3.0.0")).toBe(true);
    // A crash here: readers no longer see 3.0.0, and their read repairs the pointer.
    expect((await read("/tools/cut/versions/3.0.0")).status).toBe(404);
    await expectLatestEverywhere("cut", "2.0.0");
    expect((await call("DELETE", "/tools/cut/versions/3.0.0")).status).toBe(200);
    expect(await entries.reads.getStoredVersion("cut", "3.0.0")).toBeUndefined();

    expect(await entries.deletion.markDeleting("cut", "2.0.0")).toBe(true);
    const doctor = await call("POST", "/registry/doctor", { fix: true, graceSeconds: 0 });
    const findings = (doctor.body.findings as { kind: string; toolId?: string; version?: string; fixed: boolean }[]).filter(
      (finding) => finding.toolId === "cut",
    );
    expect(findings).toContainEqual(expect.objectContaining({ kind: "unfinished-version-delete", version: "2.0.0", fixed: true }));
    await expectLatestEverywhere("cut", "1.0.0");
    const again = await call("POST", "/registry/doctor", { fix: false, graceSeconds: 0 });
    expect((again.body.findings as { toolId?: string }[]).filter((finding) => finding.toolId === "cut")).toEqual([]);
    // Publishing a version whose delete was cut short finishes the delete, then publishes afresh.
    expect(await entries.deletion.markDeleting("cut", "1.0.0")).toBe(true);
    await publish("cut", "1.0.0");
    await expectLatestEverywhere("cut", "1.0.0");
  });

  it("a yank cut short before the pointer moved is repaired by the next read and by the doctor", async () => {
    await publish("half-yank", "1.0.0", "2.0.0");
    const { entries } = registry.local.deps;
    const stored = (await entries.reads.getStoredVersion("half-yank", "2.0.0"))!;
    const yanked = withStatus(
      stored.entry,
      { status: "yanked", message: "cut short" },
      new Date(Date.parse(stored.entry.updated_at) + 5).toISOString(),
    );
    expect(await entries.versions.updateVersionEntry(yanked, stored.entry.updated_at)).toBe(true);
    // The pointer still names 2.0.0 (only the version item changed); the doctor sees it, a read repairs it.
    const doctor = await call("POST", "/registry/doctor", { fix: false, graceSeconds: 0 });
    expect(doctor.body.findings).toContainEqual(expect.objectContaining({ kind: "stale-pointer", toolId: "half-yank" }));
    expect(await latestOf("half-yank")).toBe("1.0.0");
    await expectLatestEverywhere("half-yank", "1.0.0");
  });

  it("refuses a status change while the version's publish is still running", async () => {
    await publish("inflight", "1.0.0");
    const { entries } = registry.local.deps;
    const stored = (await entries.reads.getStoredVersion("inflight", "1.0.0"))!;
    await entries.versions.putVersion({ ...stored.entry, version: "1.1.0", updated_at: new Date().toISOString() }, "release");
    const answer = await call("PATCH", "/tools/inflight/versions/1.1.0", { status: "yanked", reason: "x" });
    expect(answer.status).toBe(409);
    expect(answer.headers.get("retry-after")).toBe("5");
    expect(answer.body.detail).toMatch(/still being published; retry in a few seconds/);
    expect((await call("DELETE", "/tools/inflight/versions/1.1.0")).status).toBe(409);
  });

  it("concurrent yanks, restores and publishes end on the highest version that is not yanked", async () => {
    await publish("race", "1.0.0");
    const answers = await Promise.all([
      call("PATCH", "/tools/race/versions/1.0.0", { status: "yanked", reason: "r1" }),
      publish("race", "1.1.0"),
      publish("race", "1.2.0"),
      (async () => {
        for (let tries = 0; tries < 40; tries++) {
          const answer = await call("PATCH", "/tools/race/versions/1.2.0", { status: "yanked", reason: "r2" });
          if (answer.status !== 404 && answer.status !== 409) return answer;
          await new Promise((done) => setTimeout(done, 50));
        }
        throw new Error("1.2.0 never became yankable");
      })(),
      publish("race", "1.3.0").then(() => call("DELETE", "/tools/race/versions/1.3.0")),
    ]);
    for (const answer of answers) if (answer !== undefined) expect(answer.status).toBe(200);
    expect(await versionsOf("race", "?include_yanked=true")).toEqual(["1.2.0:yanked", "1.1.0:active", "1.0.0:yanked"]);
    await expectLatestEverywhere("race", "1.1.0");
    const doctor = await call("POST", "/registry/doctor", { fix: false, graceSeconds: 0 });
    expect((doctor.body.findings as { toolId?: string }[]).filter((finding) => finding.toolId === "race")).toEqual([]);
  });
});
