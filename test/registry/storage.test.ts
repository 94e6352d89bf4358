// EntryStore and ArchiveStore against the in-process emulators, through the AWS SDK.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PublishedEntry } from "../../functions/catalog/published-entry.js";
import type { RegistryConfig } from "../../functions/config.js";
import { entryFromSpec } from "../../functions/entry/tool-entry.js";
import { startEmulators, type Emulators } from "../../functions/local/emulators.js";
import { provisionStorage } from "../../functions/local/provision-storage.js";
import { ArchiveStore } from "../../functions/storage/archive-store.js";
import { createDynamoDocumentClient, createS3Client } from "../../functions/storage/aws-clients.js";
import { EntryStore, VersionExistsError } from "../../functions/storage/entry-store.js";

let dataDir: string;
let emulators: Emulators;
let entries: EntryStore;
let archives: ArchiveStore;

function entry(toolId: string, version: string, fields: Partial<PublishedEntry> = {}): PublishedEntry {
  const { tool_source_code_link: _link, ...defaults } = entryFromSpec({ tool_id: toolId, tool_type: "demo" });
  return {
    ...defaults,
    version,
    tool_archive_sha256: "0".repeat(64),
    tool_archive_integrity: "sha512-x",
    tool_archive_size: 1,
    published_at: "2026-01-01T00:00:00.000Z",
    updated_at: "2026-01-01T00:00:00.000Z",
    ...fields,
  };
}

async function publish(value: PublishedEntry): Promise<void> {
  await entries.putVersion(value);
  await entries.promoteIfNewest(value);
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), "agent-tools-storage-"));
  emulators = await startEmulators(dataDir);
  const config: RegistryConfig = {
    region: "us-east-1",
    tableName: "storage-test",
    bucketName: "storage-test",
    s3Endpoint: emulators.s3Endpoint,
    dynamodbEndpoint: emulators.dynamodbEndpoint,
    credentials: emulators.credentials,
    archiveDelivery: "proxy",
    presignExpiresSeconds: 60,
    maxBundleBytes: 1024,
    cacheRevalidateMs: 0,
  };
  await provisionStorage(config);
  await provisionStorage(config); // idempotent: a restart finds both in place
  entries = new EntryStore(createDynamoDocumentClient(config), config.tableName);
  archives = new ArchiveStore(createS3Client(config), config.bucketName);
});

afterAll(async () => {
  await emulators?.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe("EntryStore", () => {
  it("refuses a second put of the same (tool_id, version)", async () => {
    await publish(entry("dup", "1.0.0"));
    await expect(entries.putVersion(entry("dup", "1.0.0", { tool_type: "other" }))).rejects.toBeInstanceOf(VersionExistsError);
    expect((await entries.getVersion("dup", "1.0.0"))?.tool_type).toBe("demo");
  });

  it("lets exactly one of many concurrent puts of a new pair succeed", async () => {
    const results = await Promise.allSettled(
      Array.from({ length: 8 }, (_, i) => entries.putVersion(entry("race", "1.0.0", { tool_type: `t${i}` }))),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(results.filter((r) => r.status === "rejected" && r.reason instanceof VersionExistsError)).toHaveLength(7);
  });

  it("keeps the highest semver as latest whatever the upload order, and lists versions newest first", async () => {
    for (const version of ["1.0.0", "1.10.0", "1.9.0", "0.5.0"]) await publish(entry("semver", version));
    expect((await entries.getLatest("semver"))?.version).toBe("1.10.0");
    expect((await entries.listVersions("semver")).map((e) => e.version)).toEqual(["1.10.0", "1.9.0", "1.0.0", "0.5.0"]);
  });

  it("promotes concurrently published versions to the highest one", async () => {
    const versions = ["2.0.1", "2.0.3", "2.0.0", "2.0.2"];
    await Promise.all(versions.map((version) => publish(entry("parallel", version))));
    expect((await entries.getLatest("parallel"))?.version).toBe("2.0.3");
  });

  it("pages latest entries by tool id with a cursor, and filters by type, tag and updated_since", async () => {
    for (const id of ["list-a", "list-b", "list-c"]) {
      await publish(
        entry(id, "1.0.0", {
          tool_type: id === "list-b" ? "special" : "demo",
          tool_tags: id === "list-c" ? ["rare"] : ["common"],
          updated_at: id === "list-a" ? "2030-01-01T00:00:00.000Z" : "2026-01-01T00:00:00.000Z",
        }),
      );
    }
    const seen: string[] = [];
    let startAfter: string | undefined;
    do {
      const page = await entries.listLatest(2, {}, startAfter);
      expect(page.entries.length).toBeLessThanOrEqual(2);
      seen.push(...page.entries.map((e) => e.tool_id));
      startAfter = page.more ? page.entries.at(-1)!.tool_id : undefined;
    } while (startAfter);
    expect(seen).toEqual([...seen].sort());
    expect(seen).toEqual(expect.arrayContaining(["list-a", "list-b", "list-c", "semver", "dup"]));
    expect(new Set(seen).size).toBe(seen.length);

    expect((await entries.listLatest(50, { type: "special" })).entries.map((e) => e.tool_id)).toEqual(["list-b"]);
    expect((await entries.listLatest(50, { tag: "rare" })).entries.map((e) => e.tool_id)).toEqual(["list-c"]);
    expect((await entries.listLatest(50, { updatedSince: "2029-01-01T00:00:00.000Z" })).entries.map((e) => e.tool_id)).toEqual(["list-a"]);
  });

  it("changes the catalog revision on every bump", async () => {
    const before = await entries.catalogRevision();
    const bumped = await entries.bumpRevision();
    expect(bumped).not.toBe(before);
    expect(await entries.catalogRevision()).toBe(bumped);
  });

  it("tracks which archives are referenced and deletes every version of a tool", async () => {
    const sha = "a".repeat(64);
    await publish(entry("gone", "1.0.0", { tool_archive_sha256: sha }));
    await publish(entry("gone", "1.1.0", { tool_archive_sha256: sha }));
    expect(await entries.archiveReferenced(sha)).toBe(true);
    expect((await entries.deleteTool("gone")).map((e) => e.version).sort()).toEqual(["1.0.0", "1.1.0"]);
    expect(await entries.getLatest("gone")).toBeUndefined();
    expect(await entries.listVersions("gone")).toEqual([]);
    expect(await entries.archiveReferenced(sha)).toBe(false);
    expect((await entries.listAllLatest()).map((e) => e.tool_id)).not.toContain("gone");
  });

  it("replaces a version's entry and the latest pointer that names it", async () => {
    await publish(entry("edit", "1.0.0"));
    expect(await entries.replaceVersion(entry("edit", "1.0.0", { tool_search_description: "new" }))).toBe(true);
    expect((await entries.getLatest("edit"))?.tool_search_description).toBe("new");
    expect(await entries.replaceVersion(entry("edit", "9.9.9"))).toBe(false);
  });
});

describe("ArchiveStore", () => {
  it("stores, presigns, reads and deletes content-addressed archives byte for byte", async () => {
    const bytes = new Uint8Array(200_000).map((_, i) => (i * 31) % 256);
    const sha = "b".repeat(64);
    await archives.put(sha, bytes);
    expect(await archives.exists(sha)).toBe(true);
    expect(Buffer.from((await archives.get(sha))!).equals(Buffer.from(bytes))).toBe(true);
    const presigned = await fetch(await archives.presignGet(sha, 60));
    expect(Buffer.from(await presigned.arrayBuffer()).equals(Buffer.from(bytes))).toBe(true);
    await archives.delete(sha);
    expect(await archives.exists(sha)).toBe(false);
    expect(await archives.get(sha)).toBeUndefined();
  });
});
