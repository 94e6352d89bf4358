// The registry's storage code against AWS's own DynamoDB Local instead of dynalite: whatever real
// DynamoDB refuses that the embedded emulator allows (nesting, item and attribute-name sizes,
// numbers, empty names, consistent reads on indexes) must be refused by the registry first, as a
// 4xx, and everything the registry accepts must store and read back (docs/durability.md).
import { readFileSync, readdirSync, readlinkSync } from "node:fs";
import { BatchWriteCommand, PutCommand, QueryCommand } from "@aws-sdk/lib-dynamodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { versionRank } from "../../../functions/entry/version-rank.js";
import { runDoctor } from "../../../functions/doctor/run-doctor.js";
import { MAX_ENTRY_BYTES, MAX_FIELD_DEPTH, MAX_KEY_BYTES } from "../../../functions/entry/entry-limits.js";
import { createDynamoDocumentClient } from "../../../functions/storage/aws-clients.js";
import { indexQueryInput } from "../../../functions/storage/index-query.js";
import { LATEST_CATALOG, LATEST_INDEX, LATEST_SORT_KEY } from "../../../functions/storage/table-schema.js";
import { buildBundle, fixtureBundle, type FixtureBundle } from "../../support/bundles.js";
import { startDynamoDbLocal, type DynamoDbLocal } from "../../support/dynamodb-local.js";
import { startTestRegistry, uploadBundle, type TestRegistry } from "../../support/registry.js";
import { BUILT_IN_KEY_PARAMETERS, storedEntry } from "./built-in-keys.js";
import { storageSnapshot } from "./storage-snapshot.js";

let dynamodb: DynamoDbLocal;
let registry: TestRegistry;
let base: FixtureBundle;

const request = async (method: string, path: string, body?: string) => {
  const response = await fetch(`${registry.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${registry.token}`, "content-type": "application/json" },
    ...(body === undefined ? {} : { body }),
  });
  const text = await response.text();
  return { status: response.status, body: (text === "" ? {} : JSON.parse(text)) as any, headers: response.headers };
};

/** An upload of the text-stats fixture as `toolId@version`, with spec fields replaced (as text, so any JSON fits). */
function specBundle(toolId: string, version: string, fields: Record<string, string> = {}, toolMd = "# conformance\n"): Uint8Array {
  const spec: Record<string, unknown> = { ...base.spec, tool_id: toolId, tool_metadata: { version } };
  let text = JSON.stringify(spec).slice(0, -1);
  for (const [field, json] of Object.entries(fields)) text += `,${JSON.stringify(field)}:${json}`;
  return buildBundle({ spec: `${text}}`, toolZip: base.toolZip, toolMd });
}

const upload = (bytes: Uint8Array) => uploadBundle(registry.url, registry.token, bytes);

/** `{"a":{"a":…1}}`, `depth` levels of maps, built as text. */
const nested = (depth: number) => `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;

beforeAll(async () => {
  dynamodb = await startDynamoDbLocal();
  registry = await startTestRegistry({ dynamodbEndpoint: dynamodb.endpoint });
  base = await fixtureBundle("text-stats");
}, 120_000);

afterAll(async () => {
  await registry?.close();
  await dynamodb?.close();
});

describe("DynamoDB Local", () => {
  it("runs off the network: in a network namespace of its own whose only interface is loopback", () => {
    const jvm = descendants(dynamodb.pid).find((pid) => readFileSync(`/proc/${pid}/comm`, "utf8").trim() === "java");
    expect(jvm, "the DynamoDB Local JVM").toBeDefined();
    expect(readlinkSync(`/proc/${jvm}/ns/net`)).not.toBe(readlinkSync("/proc/self/ns/net"));
    const interfaces = readFileSync(`/proc/${jvm}/net/dev`, "utf8")
      .split("\n")
      .slice(2)
      .map((line) => line.split(":")[0]!.trim())
      .filter(Boolean);
    expect(interfaces).toEqual(["lo"]);
  });

  it("is what the registry stores in (the table was provisioned there)", async () => {
    expect(registry.local.config.dynamodbEndpoint).toBe(dynamodb.endpoint);
  });
});

// Every call goes to a JVM that is still warming up, beside the rest of the suite on two cores.
describe("publishing and deleting on DynamoDB Local", { timeout: 90_000 }, () => {
  it("publishes, lists, edits, pages, deletes and publishes again", async () => {
    expect((await upload(specBundle("conform", "1.0.0"))).status).toBe(200);
    expect((await upload(specBundle("conform", "1.1.0"))).status).toBe(200);
    expect((await upload(specBundle("conform", "1.1.0"))).status).toBe(409);
    expect((await request("GET", "/tools/conform")).body.version).toBe("1.1.0");
    expect((await request("GET", "/tools/conform/versions")).body.map((entry: { version: string }) => entry.version)).toEqual([
      "1.1.0",
      "1.0.0",
    ]);
    const archive = await fetch(`${registry.url}/tools/conform/versions/1.0.0/archive`);
    expect(Buffer.from(await archive.arrayBuffer()).equals(Buffer.from(base.toolZip))).toBe(true);

    expect((await request("PUT", "/tools/conform", JSON.stringify({ tool_search_description: "edited on DynamoDB Local" }))).status).toBe(
      200,
    );
    expect((await request("GET", "/tools/conform")).body.tool_search_description).toBe("edited on DynamoDB Local");

    for (const id of ["conform-a", "conform-b", "conform-c"]) expect((await upload(specBundle(id, "1.0.0"))).status).toBe(200);
    const seen: string[] = [];
    let next: string | undefined = "/tools?limit=2";
    while (next !== undefined) {
      const page = await request("GET", next);
      expect(page.status).toBe(200);
      seen.push(...page.body.map((entry: { tool_id: string }) => entry.tool_id));
      next = /<([^>]+)>; rel="next"/.exec(page.headers.get("link") ?? "")?.[1]?.replace(registry.url, "");
    }
    expect(seen.filter((id) => id.startsWith("conform"))).toEqual(["conform", "conform-a", "conform-b", "conform-c"]);
    expect((await request("GET", "/tools?type=text-processing&tag=nlp&limit=1")).body).toHaveLength(1);
    expect((await request("GET", "/tools/query/by-type?type=text-processing")).status).toBe(200);

    expect((await request("DELETE", "/tools/conform")).status).toBe(200);
    expect((await request("GET", "/tools/conform")).status).toBe(404);
    expect((await storageSnapshot(registry.local)).items.filter((key) => key.startsWith("conform "))).toEqual([]);
    expect((await upload(specBundle("conform", "1.0.0"))).status).toBe(200);
    expect((await request("GET", "/tools/conform")).body.version).toBe("1.0.0");
  });

  it("ends 20 concurrent new versions of one tool on the highest, with no 5xx", async () => {
    const versions = Array.from({ length: 20 }, (_, i) => `2.${i}.0`);
    const bundles = versions.map((version) => specBundle("conform-race", version));
    const statuses = await Promise.all(bundles.map(async (bytes) => (await upload(bytes)).status));
    expect(statuses).toEqual(versions.map(() => 200));
    expect((await request("GET", "/tools/conform-race")).body.version).toBe("2.19.0");
    expect((await request("GET", "/tools/conform-race/versions")).body).toHaveLength(20);
  });

  it("takes the longest tool id and version the registry accepts as keys", async () => {
    const toolId = `l${"o".repeat(126)}g`;
    const version = `1.0.0-${"x".repeat(122)}`;
    expect((await upload(specBundle(toolId, version))).status).toBe(200);
    expect((await request("GET", `/tools/${toolId}/versions/${version}`)).body.version).toBe(version);
    expect((await request("DELETE", `/tools/${toolId}`)).status).toBe(200);
  });

  it("finishes the states a crash leaves (pending version, missing pointer, tombstone) and the doctor ends clean", async () => {
    expect((await upload(specBundle("conform-crash", "1.0.0"))).status).toBe(200);
    const { entries } = registry.local.deps;
    const db = createDynamoDocumentClient(registry.local.config);
    const table = registry.local.config.tableName;
    try {
      // Crashed after the version item: pending and no pointer.
      const stored = await entries.reads.getStoredVersion("conform-crash", "1.0.0");
      await db.send(
        new PutCommand({
          TableName: table,
          Item: {
            tool_id: "conform-crash",
            version: "1.0.1",
            entry: { ...stored!.entry, version: "1.0.1" },
            tool_archive_sha256: stored!.entry.tool_archive_sha256,
            version_rank: versionRank("1.0.1"),
            state: "pending",
          },
        }),
      );
      await entries.deletion.beginDeletion("conform-gone", [], "crashed");
    } finally {
      db.destroy();
    }
    registry.local.deps.reader.invalidate();
    const found = await runDoctor(registry.local.deps, { graceSeconds: 0 });
    expect(found.findings.map((finding) => finding.kind).sort()).toEqual(["stale-pointer", "unfinished-delete", "unfinished-publish"]);
    await runDoctor(registry.local.deps, { fix: true, graceSeconds: 0 });
    expect((await runDoctor(registry.local.deps, { graceSeconds: 0 })).findings).toEqual([]);
    expect((await request("GET", "/tools/conform-crash")).body.version).toBe("1.0.1");
    expect((await entries.reads.readPartition("conform-gone")).pointer).toBeUndefined();
  });
});

describe("limits on DynamoDB Local", { timeout: 60_000 }, () => {
  it("deletes a tool with more versions than one tombstone item can list (DynamoDB refuses such a tombstone)", async () => {
    expect((await upload(specBundle("conform-many", "0.0.1"))).status).toBe(200);
    const stored = (await registry.local.deps.entries.reads.getStoredVersion("conform-many", "0.0.1"))!.entry;
    // 3,300 versions of 128 characters: their names alone are over 400 KB.
    const versions = Array.from({ length: 3_300 }, (_, i) => `0.0.${i + 2}-${"x".repeat(128 - `0.0.${i + 2}-`.length)}`);
    const db = createDynamoDocumentClient(registry.local.config);
    const table = registry.local.config.tableName;
    try {
      for (let start = 0; start < versions.length; start += 25) {
        const items = versions.slice(start, start + 25).map((version) => ({
          // Only what a delete reads of a version (tool-partition.ts), to keep the seeding quick.
          PutRequest: {
            Item: {
              tool_id: "conform-many",
              version,
              entry: { updated_at: stored.updated_at, tool_archive_size: stored.tool_archive_size },
              tool_archive_sha256: stored.tool_archive_sha256,
              version_rank: versionRank(version),
            },
          },
        }));
        await db.send(new BatchWriteCommand({ RequestItems: { [table]: items } }));
      }
    } finally {
      db.destroy();
    }
    await expect(registry.local.deps.entries.deletion.beginDeletion("conform-probe", versions, "probe")).rejects.toThrow(/size/);
    expect((await request("DELETE", "/tools/conform-many")).status).toBe(200);
    expect((await request("GET", "/tools/conform-many")).status).toBe(404);
    expect((await registry.local.deps.entries.reads.readPartition("conform-many")).versions).toEqual([]);
  });

  it("stores a field nested as deep as the registry allows, and DynamoDB itself refuses one level more", async () => {
    expect((await upload(specBundle("conform-deep", "1.0.0", { tool_parameters: nested(MAX_FIELD_DEPTH) }))).status).toBe(200);
    const entry = (await request("GET", "/tools/conform-deep")).body;
    expect(JSON.stringify(entry.tool_parameters)).toBe(nested(MAX_FIELD_DEPTH));

    const refused = await upload(specBundle("conform-deep", "1.0.1", { tool_parameters: nested(MAX_FIELD_DEPTH + 1) }));
    expect(refused.status).toBe(422);
    // The limit is DynamoDB's, not a guess: the same item one level deeper is refused by it.
    const stored = await registry.local.deps.entries.reads.getStoredVersion("conform-deep", "1.0.0");
    const deeper = { ...stored!.entry, tool_parameters: JSON.parse(nested(MAX_FIELD_DEPTH + 1)) };
    await expect(rawPut({ tool_id: "conform-deep", version: "9.9.9", entry: deeper })).rejects.toThrow(/[Nn]esting/);
  });

  it("stores an entry at its size budget twice (version item and pointer), and DynamoDB refuses an item over 400 KB", async () => {
    const toolMd = `# big\n${"x".repeat(MAX_ENTRY_BYTES - 4_000)}`;
    expect((await upload(specBundle("conform-big", "1.0.0", {}, toolMd))).status).toBe(200);
    expect((await request("GET", "/tools/conform-big")).body.tool_man_page_doc).toBe(toolMd);
    expect((await upload(specBundle("conform-big", "1.0.1", {}, `${toolMd}${"x".repeat(8_000)}`))).status).toBe(413);
    await expect(rawPut({ tool_id: "conform-big", version: "9.9.9", filler: "x".repeat(400 * 1024) })).rejects.toThrow(/size/);
  });

  it("refuses empty and over-long object keys, which DynamoDB cannot store, as 422 on upload and PUT", async () => {
    const snapshot = await storageSnapshot(registry.local);
    const long = "k".repeat(MAX_KEY_BYTES + 1);
    for (const [label, json] of [
      ["empty key", '{"properties":{"":{"type":"string"}}}'],
      ["long key", `{"${long}":1}`],
    ] as const) {
      const uploaded = await upload(specBundle("conform-keys", "1.0.0", { tool_parameters: json }));
      expect(uploaded.status, label).toBe(422);
      expect(String(uploaded.body.detail), label).toContain("tool_parameters");
      const put = await request("PUT", "/tools/conform-a", `{"tool_settings":${json}}`);
      expect(put.status, label).toBe(422);
    }
    expect(await storageSnapshot(registry.local)).toEqual(snapshot);
    await expect(rawPut({ tool_id: "conform-keys", version: "9.9.9", entry: { "": 1 } })).rejects.toThrow(/[Ee]mpty attribute name/);
    expect((await upload(specBundle("conform-keys", "1.0.0", { tool_parameters: `{"${"k".repeat(MAX_KEY_BYTES)}":1}` }))).status).toBe(200);
  });

  it("stores object keys that name JavaScript built-ins (constructor, toString, valueOf) exactly", async () => {
    for (const [index, parameters] of BUILT_IN_KEY_PARAMETERS.entries()) {
      const toolId = `conform-built-in-keys-${index}`;
      expect((await upload(specBundle(toolId, "1.0.0", { tool_parameters: JSON.stringify(parameters) }))).status).toBe(200);
      expect((await storedEntry(registry.local, toolId, "1.0.0"))?.tool_parameters).toEqual(parameters);
    }
  });

  it("refuses numbers DynamoDB or the SDK cannot store exactly, and stores the rest exactly", async () => {
    const snapshot = await storageSnapshot(registry.local);
    for (const number of ["1e300", "1e20", "9007199254740993", "-9007199254740993", "5e-324", "1e-131"]) {
      const uploaded = await upload(specBundle("conform-numbers", "1.0.0", { tool_parameters: `{"maximum":${number}}` }));
      expect(uploaded.status, number).toBe(422);
      expect(String(uploaded.body.detail), number).toMatch(/tool_parameters.*number/);
      expect((await request("PUT", "/tools/conform-a", `{"tool_settings":{"maximum":${number}}}`)).status, number).toBe(422);
    }
    expect(await storageSnapshot(registry.local)).toEqual(snapshot);
    const storable = { max: 9007199254740991, min: -9007199254740991, small: 1e-130, fraction: 0.1 + 0.2, zero: 0, exponent: 1.5e-7 };
    expect((await upload(specBundle("conform-numbers", "1.0.0", { tool_parameters: JSON.stringify(storable) }))).status).toBe(200);
    expect((await request("GET", "/tools/conform-numbers")).body.tool_parameters).toEqual(storable);
  });

  it("refuses forged and oversized cursors before storage", async () => {
    for (const cursor of ["A".repeat(1_368), "not-a-cursor", "%00"]) {
      const answer = await request("GET", `/tools?cursor=${cursor}`);
      expect(answer.status, cursor.slice(0, 20)).toBe(400);
    }
  });

  it("index queries do not ask for consistent reads, which DynamoDB refuses on a global secondary index", async () => {
    const query = indexQueryInput(registry.local.config.tableName, LATEST_INDEX, LATEST_CATALOG);
    expect(query.ConsistentRead).toBeUndefined();
    const db = createDynamoDocumentClient(registry.local.config);
    try {
      await expect(db.send(new QueryCommand({ ...query, ConsistentRead: true }))).rejects.toThrow(/[Cc]onsistent read/);
      expect(((await db.send(new QueryCommand(query))).Items ?? []).every((item) => item.version === LATEST_SORT_KEY)).toBe(true);
    } finally {
      db.destroy();
    }
  });
});

async function rawPut(item: Record<string, unknown>): Promise<void> {
  const db = createDynamoDocumentClient({ ...registry.local.config, storageMaxAttempts: 1 });
  try {
    await db.send(new PutCommand({ TableName: registry.local.config.tableName, Item: item }));
  } finally {
    db.destroy();
  }
}

/** Every process below `pid`, from /proc. */
function descendants(pid: number): number[] {
  const parentOf = new Map<number, number>();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      parentOf.set(Number(name), Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]));
    } catch {
      // exited meanwhile
    }
  }
  const found: number[] = [];
  let frontier = [pid];
  while (frontier.length > 0) {
    frontier = [...parentOf].filter(([, parent]) => frontier.includes(parent)).map(([child]) => child);
    found.push(...frontier);
  }
  return found;
}
