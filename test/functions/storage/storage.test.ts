// EntryStore and ArchiveStore against the in-process emulators, through the AWS SDK.
import { createHash } from "node:crypto";
import { mkdtemp, rm, stat } from "node:fs/promises";
import { PutObjectCommand, type S3Client } from "@aws-sdk/client-s3";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PublishedEntry } from "../../../functions/entry/published-entry.js";
import type { RegistryConfig } from "../../../functions/config.js";
import { entryFromSpec } from "../../../functions/entry/tool-entry.js";
import { S3_FOLDER, startEmulators, type Emulators } from "../../../functions/local/emulators.js";
import { provisionStorage } from "../../../functions/local/provision-storage.js";
import { ArchiveStore } from "../../../functions/storage/archive-store.js";
import { createDynamoDocumentClient, createS3Client } from "../../../functions/storage/aws-clients.js";
import { EntryStore } from "../../../functions/storage/entry-store.js";
import { VersionExistsError } from "../../../functions/storage/version-writes.js";
import { highestVersion, summarisePartition } from "../../../functions/storage/tool-partition.js";
import { OwnerStore } from "../../../functions/storage/owner-store.js";

let dataDir: string;
let emulators: Emulators;
let entries: EntryStore;
let archives: ArchiveStore;
let s3: S3Client;
let bucket: string;
let config: RegistryConfig;

function sha256(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/** Puts raw bytes under an archive key, as a crash mid-write or a foreign writer would leave them. */
async function plant(sha: string, bytes: Uint8Array): Promise<void> {
  await s3.send(new PutObjectCommand({ Bucket: bucket, Key: ArchiveStore.key(sha), Body: bytes, ContentLength: bytes.byteLength }));
}

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
  await entries.versions.putVersion(value, `digest-of-${value.tool_id}@${value.version}`);
  await entries.pointer.advancePointer(value);
  await entries.versions.markPublished(value.tool_id, value.version);
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), "agent-tools-storage-"));
  emulators = await startEmulators(dataDir);
  config = {
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
  s3 = createS3Client(config);
  bucket = config.bucketName;
  archives = new ArchiveStore(s3, config.bucketName);
});

afterAll(async () => {
  await emulators?.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe("EntryStore", () => {
  it("refuses a second put of the same (tool_id, version)", async () => {
    await publish(entry("dup", "1.0.0"));
    await expect(entries.versions.putVersion(entry("dup", "1.0.0", { tool_type: "other" }), "other")).rejects.toBeInstanceOf(
      VersionExistsError,
    );
    expect((await entries.reads.getVersion("dup", "1.0.0"))?.tool_type).toBe("demo");
  });

  it("lets exactly one of many concurrent puts of a new pair succeed", async () => {
    const results = await Promise.allSettled(
      Array.from({ length: 8 }, (_, i) => entries.versions.putVersion(entry("race", "1.0.0", { tool_type: `t${i}` }), `d${i}`)),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(results.filter((r) => r.status === "rejected" && r.reason instanceof VersionExistsError)).toHaveLength(7);
  });

  it("keeps the highest semver as latest whatever the upload order, and lists versions newest first", async () => {
    for (const version of ["1.0.0", "1.10.0", "1.9.0", "0.5.0"]) await publish(entry("semver", version));
    expect((await entries.reads.getLatest("semver"))?.version).toBe("1.10.0");
    expect((await entries.reads.listVersions("semver")).map((e) => e.version)).toEqual(["1.10.0", "1.9.0", "1.0.0", "0.5.0"]);
  });

  it("promotes concurrently published versions to the highest one", async () => {
    const versions = ["2.0.1", "2.0.3", "2.0.0", "2.0.2"];
    await Promise.all(versions.map((version) => publish(entry("parallel", version))));
    expect((await entries.reads.getLatest("parallel"))?.version).toBe("2.0.3");
  });

  it("changes the catalog revision on every bump", async () => {
    const before = await entries.revision.catalogRevision();
    const bumped = await entries.revision.bumpRevision();
    expect(bumped).not.toBe(before);
    expect(await entries.revision.catalogRevision()).toBe(bumped);
  });

  it(
    "records a change in one write when it knows the revision, in " + "two when another writer moved it, and logs it exactly either way",
    async () => {
      const writes: string[] = [];
      const db = createDynamoDocumentClient(config);
      db.middlewareStack.add(
        (next, context) => (args) => {
          writes.push(String(context.commandName));
          return next(args);
        },
        { step: "initialize" },
      );
      const store = new EntryStore(db, config.tableName);
      const other = new EntryStore(createDynamoDocumentClient(config), config.tableName);
      try {
        const start = (await store.revision.readRevisionLog()).revision;
        writes.length = 0;
        expect(await store.revision.recordChange({ toolId: "first", kind: "published" })).toBe(start + 1);
        expect(await store.revision.recordChange({ toolId: "second", kind: "published" })).toBe(start + 2);
        expect(writes).toEqual(["UpdateItemCommand", "UpdateItemCommand"]);
        await other.revision.recordChange({ toolId: "elsewhere", kind: "published" });
        writes.length = 0;
        expect(await store.revision.recordChange({ toolId: "third", kind: "published" })).toBe(start + 4);
        // The failed conditional write, then the bump and the log write.
        expect(writes).toEqual(["UpdateItemCommand", "UpdateItemCommand", "UpdateItemCommand"]);
        const log = await store.revision.readRevisionLog();
        expect([1, 2, 3, 4].map((step) => log.toolChangedAt(start + step))).toEqual(["first", "second", "elsewhere", "third"]);
      } finally {
        db.destroy();
      }
    },
  );

  it("records concurrent changes under distinct revisions, each logged", async () => {
    const start = (await entries.revision.readRevisionLog()).revision;
    const tools = Array.from({ length: 8 }, (_, i) => `concurrent-${i}`);
    const revisions = await Promise.all(tools.map((toolId) => entries.revision.recordChange({ toolId, kind: "published" })));
    expect([...revisions].sort((a, b) => a - b)).toEqual(tools.map((_, i) => start + i + 1));
    const log = await entries.revision.readRevisionLog();
    expect(revisions.map((revision) => log.toolChangedAt(revision))).toEqual(tools);
  });

  it("tracks which archives are referenced and deletes every version of a tool", async () => {
    const sha = "a".repeat(64);
    await publish(entry("gone", "1.0.0", { tool_archive_sha256: sha }));
    await publish(entry("gone", "1.1.0", { tool_archive_sha256: sha }));
    expect(await entries.indexes.archiveReferenced(sha)).toBe(true);
    await entries.deletion.beginDeletion("gone", ["1.0.0", "1.1.0"], "deletion-1");
    expect(await entries.reads.listVersions("gone")).toEqual([]); // claimed versions are hidden at once
    await entries.deletion.deleteVersions("gone", ["1.0.0", "1.1.0"]);
    await entries.deletion.endDeletion("gone", "deletion-1");
    expect(await entries.reads.getLatest("gone")).toBeUndefined();
    expect(await entries.reads.listVersions("gone")).toEqual([]);
    expect(await entries.indexes.archiveReferenced(sha)).toBe(false);
    expect((await entries.reads.listAllLatest()).map((e) => e.tool_id)).not.toContain("gone");
  });

  it("lists every tool id once by a scan in parallel segments, whatever the number of segments", async () => {
    for (const id of ["segment-a", "segment-b", "segment-c"]) await publish(entry(id, "1.0.0"));
    await publish(entry("segment-a", "1.1.0"));
    const one = await entries.indexes.listToolIds(1);
    expect(one).toEqual(expect.arrayContaining(["segment-a", "segment-b", "segment-c"]));
    expect(new Set(one).size).toBe(one.length);
    for (const segments of [3, 8, 32]) expect(await entries.indexes.listToolIds(segments), String(segments)).toEqual(one);
  });

  it("replaces a version's entry and the latest pointer that names it", async () => {
    await publish(entry("edit", "1.0.0"));
    const edited = entry("edit", "1.0.0", { tool_search_description: "new", updated_at: "2026-02-01T00:00:00.000Z" });
    expect(await entries.versions.replaceVersion(edited)).toBe(true);
    expect((await entries.reads.getLatest("edit"))?.tool_search_description).toBe("new");
    expect(await entries.versions.replaceVersion(entry("edit", "9.9.9"))).toBe(false);
  });
});

describe("ArchiveStore", () => {
  it("stores, presigns, reads and deletes content-addressed archives byte for byte", async () => {
    const bytes = new Uint8Array(200_000).map((_, i) => (i * 31) % 256);
    const sha = sha256(bytes);
    expect(await archives.putOnce(sha, bytes)).toBe("written");
    expect(await archives.putOnce(sha, bytes)).toBe("present");
    expect(await archives.exists(sha)).toBe(true);
    expect(Buffer.from((await archives.get(sha))!).equals(Buffer.from(bytes))).toBe(true);
    const presigned = await fetch(await archives.presignGet(sha, 60));
    expect(Buffer.from(await presigned.arrayBuffer()).equals(Buffer.from(bytes))).toBe(true);
    await archives.delete(sha);
    expect(await archives.exists(sha)).toBe(false);
    expect(await archives.get(sha)).toBeUndefined();
  });
});

// Both ways of writing once: a HEAD first (storage that ignores If-None-Match), and one conditional
// PutObject (S3, and the embedded s3rver, which honours it: s3rver-if-none-match.ts).
describe.each([
  { mode: "HEAD, then PutObject", conditionalWrites: false, key: "a" },
  { mode: "PutObject with If-None-Match", conditionalWrites: true, key: "b" },
])("write-once archives ($mode)", ({ conditionalWrites, key }) => {
  const bytes = new Uint8Array(50_000).map((_, i) => (i * 7 + key.charCodeAt(0)) % 251);
  const sha = sha256(bytes);
  const store = () => new ArchiveStore(s3, bucket, { conditionalWrites });

  it("writes an absent object, then keeps it without rewriting it", async () => {
    const archives = store();
    expect(await archives.putOnce(sha, bytes)).toBe("written");
    // s3rver keeps the bytes in one file: a rewrite would give it a new modification time.
    const file = join(dataDir, S3_FOLDER, bucket, `${ArchiveStore.key(sha)}._S3rver_object`);
    const written = (await stat(file, { bigint: true })).mtimeNs;
    expect(await archives.putOnce(sha, bytes)).toBe("present");
    expect((await stat(file, { bigint: true })).mtimeNs).toBe(written);
  });

  it("rewrites an object that a crash left short, and then keeps it", async () => {
    const archives = store();
    await plant(sha, bytes.subarray(0, 1_000));
    expect(await archives.get(sha)).toBeUndefined(); // never served: the digest does not match
    expect(await archives.putOnce(sha, bytes)).toBe("repaired");
    expect(sha256((await archives.get(sha))!)).toBe(sha);
    expect(await archives.putOnce(sha, bytes)).toBe("present");
  });

  it("rewrites an object of the right length whose bytes are wrong, and an empty one", async () => {
    const archives = store();
    const damaged = Uint8Array.from(bytes);
    damaged[123] = (damaged[123]! + 1) % 256;
    await plant(sha, damaged);
    expect(await archives.isValid(sha)).toBe(false);
    expect(await archives.putOnce(sha, bytes)).toBe("repaired");
    await plant(sha, new Uint8Array());
    expect(await archives.putOnce(sha, bytes)).toBe("repaired");
    expect(await archives.isValid(sha)).toBe(true);
  });

  it("lists archive objects with their sizes, skipping other keys", async () => {
    const listed = [];
    for await (const object of store().list()) listed.push(object);
    expect(listed).toContainEqual(expect.objectContaining({ sha256: sha, size: bytes.byteLength }));
    expect(listed.every((object) => /^[0-9a-f]{64}$/.test(object.sha256))).toBe(true);
  });
});

describe("convergent pointer", () => {
  it("moves forward only: a lower version or an older edit never replaces a higher one", async () => {
    await publish(entry("forward", "2.0.0"));
    expect(await entries.pointer.advancePointer(entry("forward", "1.9.9"))).toBe(false);
    expect(await entries.pointer.advancePointer(entry("forward", "2.0.0-rc.1"))).toBe(false);
    expect(await entries.pointer.advancePointer(entry("forward", "2.0.0", { updated_at: "2025-01-01T00:00:00.000Z" }))).toBe(false);
    expect(await entries.pointer.advancePointer(entry("forward", "2.0.0", { updated_at: "2027-01-01T00:00:00.000Z" }))).toBe(true);
    expect(await entries.pointer.advancePointer(entry("forward", "10.0.0"))).toBe(true);
    expect((await entries.reads.getLatest("forward"))?.version).toBe("10.0.0");
  });

  it("ends on the highest of 20 versions advanced concurrently in any order", async () => {
    const versions = Array.from({ length: 20 }, (_, i) => `3.${i % 7}.${i}`);
    await Promise.all(versions.map((version) => entries.pointer.advancePointer(entry("swarm", version))));
    expect((await entries.reads.getLatest("swarm"))?.version).toBe("3.6.13");
  });

  it("does not recreate a pointer over a tombstone, and summarises the partition", async () => {
    await publish(entry("doomed", "1.0.0"));
    await entries.deletion.beginDeletion("doomed", ["1.0.0"], "d-1");
    expect(await entries.pointer.advancePointer(entry("doomed", "5.0.0"))).toBe(false);
    const partition = await entries.reads.readPartition("doomed");
    expect(partition.pointer).toEqual({ kind: "tombstone", deleting: ["1.0.0"], deletionId: "d-1" });
    expect(partition.versions).toEqual([expect.objectContaining({ version: "1.0.0", doomed: true, pending: false })]);
    await entries.deletion.endDeletion("doomed", "other-deletion"); // someone else's tombstone stays
    expect((await entries.reads.readPartition("doomed")).pointer?.kind).toBe("tombstone");
    await entries.deletion.endDeletion("doomed", "d-1");
    expect((await entries.reads.readPartition("doomed")).pointer).toBeUndefined();
  });

  it("never reaches internal items through a tool id", async () => {
    await expect(entries.reads.readPartition("#catalog")).rejects.toBeInstanceOf(RangeError);
    expect(await entries.reads.listVersions("#catalog")).toEqual([]);
    expect(await entries.reads.getLatest("#catalog")).toBeUndefined();
    await expect(entries.deletion.beginDeletion("#catalog", [], "x")).rejects.toBeInstanceOf(RangeError);
  });

  it("picks the highest version from a partition summary", () => {
    const partition = summarisePartition("p", [
      { version: "1.2.0", entry: { updated_at: "a" } },
      { version: "1.10.0", state: "pending", entry: { updated_at: "b" } },
      { version: "#latest", latest_version: "1.2.0", entry: { updated_at: "a" } },
    ]);
    expect(highestVersion(partition.versions)).toMatchObject({ version: "1.10.0", pending: true });
    expect(partition.pointer).toEqual({ kind: "pointer", version: "1.2.0", updatedAt: "a" });
  });
});

describe("OwnerStore", () => {
  /** An owner store with a client of its own (another process), and how many calls it sent. */
  function processStore() {
    const db = createDynamoDocumentClient(config);
    let calls = 0;
    db.middlewareStack.add(
      (next) => async (args) => {
        calls++;
        return next(args);
      },
      { step: "initialize" },
    );
    return { owners: new OwnerStore(db, config.tableName), calls: () => calls };
  }

  it("gives an id to its first claimant, for every process", async () => {
    const first = processStore();
    const second = processStore();
    expect(await first.owners.claim("owned-tool", "acme", "2026-01-01T00:00:00.000Z")).toBe("acme");
    expect(await second.owners.claim("owned-tool", "globex", "2026-01-02T00:00:00.000Z")).toBe("acme");
    expect(await second.owners.get("owned-tool")).toBe("acme");
    expect(await processStore().owners.get("unclaimed-tool")).toBeUndefined();
  });

  it("remembers an owner it read or claimed (a claim never changes), and never an absent one", async () => {
    const store = processStore();
    expect(await store.owners.get("remembered-tool")).toBeUndefined();
    expect(await store.owners.get("remembered-tool")).toBeUndefined();
    expect(store.calls()).toBe(2);
    expect(await store.owners.claim("remembered-tool", "acme", "2026-01-01T00:00:00.000Z")).toBe("acme");
    const afterClaim = store.calls();
    expect(await store.owners.get("remembered-tool")).toBe("acme");
    expect(await store.owners.claim("remembered-tool", "globex", "2026-01-01T00:00:00.000Z")).toBe("acme");
    expect(store.calls()).toBe(afterClaim);
  });
});
