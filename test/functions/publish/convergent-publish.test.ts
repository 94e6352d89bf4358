// Publish and delete as convergent state machines: the states a crash leaves behind, reached by
// running the pipeline's own steps up to a point, are finished by a retry or repaired by a read.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { PutObjectCommand } from "@aws-sdk/client-s3";
import { DeleteCommand, PutCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { describe, expect, it } from "vitest";
import type { PublishedEntry } from "../../../functions/entry/published-entry.js";
import { ArchiveStore } from "../../../functions/storage/archive-store.js";
import { pointerOrder } from "../../../functions/entry/version-rank.js";
import { createDynamoDocumentClient, createS3Client } from "../../../functions/storage/aws-clients.js";
import { LATEST_CATALOG, LATEST_SORT_KEY } from "../../../functions/storage/table-schema.js";
import { buildBundle, FIXTURE_TOOLS_DIR, fixtureBundle, readFixtureSpec, zipFiles, type FixtureBundle } from "../../support/bundles.js";
import { uploadBundle } from "../../support/registry.js";
import { registryForFile } from "../../support/registry-for-file.js";

const suite = registryForFile();

const getJson = async (path: string) => {
  const response = await fetch(`${suite.registry.url}${path}`);
  return { status: response.status, body: (await response.json()) as any };
};
const del = (toolId: string) =>
  fetch(`${suite.registry.url}/tools/${toolId}`, { method: "DELETE", headers: { authorization: `Bearer ${suite.registry.token}` } });

async function bundleOf(toolId: string, version: string, marker = ""): Promise<FixtureBundle> {
  return fixtureBundle("text-stats", { spec: { tool_id: toolId, tool_search_description: `counts words${marker}` }, version });
}

/** A bundle whose tool.zip no other test shares (its own bytes, so its own archive object). */
function ownArchiveBundle(toolId: string): { bundle: Uint8Array; toolZip: Uint8Array } {
  const toolZip = zipFiles({
    "code/function.py": readFileSync(join(FIXTURE_TOOLS_DIR, "text-stats/code/function.py")),
    "code/owner.txt": `${toolId} ${Math.random()}`,
  });
  const spec = { ...readFixtureSpec("text-stats"), tool_id: toolId };
  return { bundle: buildBundle({ spec, toolZip, toolMd: "# own archive\n" }), toolZip };
}

/**
 * Takes a finished publish back to the state a crash right after its version item leaves:
 * the version pending again, and the pointer as it was before (absent, or naming `pointerTo`).
 */
async function rewind(toolId: string, version: string, pointerTo?: PublishedEntry): Promise<void> {
  const db = createDynamoDocumentClient(suite.registry.local.config);
  const table = suite.registry.local.config.tableName;
  await db.send(
    new UpdateCommand({
      TableName: table,
      Key: { tool_id: toolId, version },
      UpdateExpression: "SET #s = :p",
      ExpressionAttributeNames: { "#s": "state" },
      ExpressionAttributeValues: { ":p": "pending" },
    }),
  );
  if (pointerTo === undefined) {
    await db.send(new DeleteCommand({ TableName: table, Key: { tool_id: toolId, version: LATEST_SORT_KEY } }));
  } else {
    await db.send(
      new PutCommand({
        TableName: table,
        Item: {
          tool_id: toolId,
          version: LATEST_SORT_KEY,
          catalog: LATEST_CATALOG,
          latest_version: pointerTo.version,
          latest_order: pointerOrder(pointerTo.version, pointerTo.updated_at),
          entry: pointerTo,
        },
      }),
    );
  }
  db.destroy();
  suite.registry.local.deps.reader.invalidate();
}

describe("a publish cut short", () => {
  it("is finished by uploading the same bundle again (200); then the next identical upload is 409", async () => {
    const fixture = await bundleOf("resumed", "1.0.0");
    expect((await uploadBundle(suite.registry.url, suite.registry.token, fixture.bundle)).status).toBe(200);
    await rewind("resumed", "1.0.0");
    const { entries } = suite.registry.local.deps;
    expect((await entries.reads.getStoredVersion("resumed", "1.0.0"))?.pending).toBe(true);
    const again = await uploadBundle(suite.registry.url, suite.registry.token, fixture.bundle);
    expect(again).toMatchObject({ status: 200, body: { message: "Tool uploaded successfully", version: "1.0.0" } });
    expect((await entries.reads.getStoredVersion("resumed", "1.0.0"))?.pending).toBe(false);
    expect((await entries.reads.getLatest("resumed"))?.version).toBe("1.0.0");
    const third = await uploadBundle(suite.registry.url, suite.registry.token, fixture.bundle);
    expect(third.status).toBe(409);
    expect(third.body.error).toBe("Failed to process tool package");
  });

  it("refuses another release under a pending version with the original error string", async () => {
    expect((await uploadBundle(suite.registry.url, suite.registry.token, (await bundleOf("contested", "1.0.0")).bundle)).status).toBe(200);
    await rewind("contested", "1.0.0");
    const other = await uploadBundle(
      suite.registry.url,
      suite.registry.token,
      (await bundleOf("contested", "1.0.0", " but different")).bundle,
    );
    expect(other.status).toBe(409);
    expect(other.body.error).toBe("Failed to process tool package");
    expect((await suite.registry.local.deps.entries.reads.getStoredVersion("contested", "1.0.0"))?.entry.tool_search_description).toBe(
      "counts words",
    );
  });

  it("is repaired by the first read when the latest pointer is missing or behind", async () => {
    const v1 = await bundleOf("stale-pointer", "1.0.0");
    expect((await uploadBundle(suite.registry.url, suite.registry.token, v1.bundle)).status).toBe(200);
    const { entries } = suite.registry.local.deps;
    const first = (await entries.reads.getLatest("stale-pointer"))!;
    expect((await uploadBundle(suite.registry.url, suite.registry.token, (await bundleOf("stale-pointer", "2.0.0")).bundle)).status).toBe(
      200,
    );
    await rewind("stale-pointer", "2.0.0", first);
    expect((await entries.reads.getLatest("stale-pointer"))?.version).toBe("1.0.0");
    expect((await getJson("/tools/stale-pointer")).body.version).toBe("2.0.0");
    expect((await entries.reads.getLatest("stale-pointer"))?.version).toBe("2.0.0"); // repaired in storage
    const listed = await getJson("/tools?limit=200");
    expect(listed.body.find((e: PublishedEntry) => e.tool_id === "stale-pointer")?.version).toBe("2.0.0");

    // A tool whose pointer never got written is served, then listed.
    expect((await uploadBundle(suite.registry.url, suite.registry.token, (await bundleOf("no-pointer", "0.1.0")).bundle)).status).toBe(200);
    await rewind("no-pointer", "0.1.0");
    expect((await getJson("/tools?limit=200")).body.map((e: PublishedEntry) => e.tool_id)).not.toContain("no-pointer");
    expect((await getJson("/tools/no-pointer")).status).toBe(200);
    expect((await entries.reads.getLatest("no-pointer"))?.version).toBe("0.1.0");
    expect((await getJson("/tools?limit=200")).body.map((e: PublishedEntry) => e.tool_id)).toContain("no-pointer");
  });
});

describe("write-once archives over HTTP", () => {
  it("never serves a damaged object, and the same bundle uploaded again restores it byte for byte", async () => {
    const fixture = ownArchiveBundle("damaged-archive");
    expect((await uploadBundle(suite.registry.url, suite.registry.token, fixture.bundle)).status).toBe(200);
    const sha256 = createHash("sha256").update(fixture.toolZip).digest("hex");
    // What a kill during an in-place rewrite left: the first half.
    const truncated = Buffer.from(fixture.toolZip.subarray(0, fixture.toolZip.byteLength >> 1));
    const s3 = createS3Client(suite.registry.local.config);
    await s3.send(
      new PutObjectCommand({
        Bucket: suite.registry.local.config.bucketName,
        Key: ArchiveStore.key(sha256),
        Body: truncated,
        ContentLength: truncated.byteLength,
      }),
    );
    s3.destroy();
    const broken = await fetch(`${suite.registry.url}/tools/damaged-archive/versions/1.0.0/archive`);
    expect(broken.status).toBe(404);
    expect(((await broken.json()) as any).detail).toMatch(/missing or damaged.*upload the same bundle again/);
    const again = await uploadBundle(suite.registry.url, suite.registry.token, fixture.bundle);
    expect(again.status).toBe(200); // the archive was incomplete, so this publish was not finished
    const restored = await fetch(`${suite.registry.url}/tools/damaged-archive/versions/1.0.0/archive`);
    expect(restored.status).toBe(200);
    expect(Buffer.from(await restored.arrayBuffer()).equals(Buffer.from(fixture.toolZip))).toBe(true);
  });

  it("does not rewrite an intact object on a duplicate upload", async () => {
    const fixture = ownArchiveBundle("dup-archive");
    const sha256 = createHash("sha256").update(fixture.toolZip).digest("hex");
    expect(await suite.registry.local.deps.archives.putOnce(sha256, fixture.toolZip)).toBe("written");
    expect((await uploadBundle(suite.registry.url, suite.registry.token, fixture.bundle)).status).toBe(200);
    expect(await suite.registry.local.deps.archives.putOnce(sha256, fixture.toolZip)).toBe("present");
  });
});

describe("concurrency", () => {
  it("ends with latest = the highest of 20 versions uploaded at once, and no 5xx", async () => {
    const versions = Array.from({ length: 20 }, (_, i) => `1.${i}.0`);
    const fixtures = await Promise.all(versions.map((version) => bundleOf("swarm", version)));
    const results = await Promise.all(fixtures.map((fixture) => uploadBundle(suite.registry.url, suite.registry.token, fixture.bundle)));
    expect(results.map((result) => result.status)).toEqual(versions.map(() => 200));
    expect((await getJson("/tools/swarm")).body.version).toBe("1.19.0");
    expect((await getJson("/tools/swarm/versions")).body).toHaveLength(20);
    expect((await suite.registry.local.deps.entries.reads.getLatest("swarm"))?.version).toBe("1.19.0");
  });
});

describe("a delete cut short", () => {
  it("hides the tool at once and is finished by the next DELETE", async () => {
    const fixture = await bundleOf("half-deleted", "1.0.0", " (delete test)");
    expect((await uploadBundle(suite.registry.url, suite.registry.token, fixture.bundle)).status).toBe(200);
    const { entries } = suite.registry.local.deps;
    // A crash right after the tombstone: every version still stored.
    await entries.deletion.beginDeletion("half-deleted", ["1.0.0"], "crashed-delete");
    suite.registry.local.deps.reader.invalidate();
    expect((await getJson("/tools/half-deleted")).status).toBe(404);
    expect((await getJson("/tools/half-deleted/versions")).status).toBe(404);
    expect((await del("half-deleted")).status).toBe(200);
    expect(await entries.reads.getStoredVersion("half-deleted", "1.0.0")).toBeUndefined();
    expect((await entries.reads.readPartition("half-deleted")).pointer).toBeUndefined();
    expect((await del("half-deleted")).status).toBe(404);
  });

  it("is finished by an upload of the same id, which then publishes afresh", async () => {
    const fixture = await bundleOf("reborn", "1.0.0", " (reborn)");
    expect((await uploadBundle(suite.registry.url, suite.registry.token, fixture.bundle)).status).toBe(200);
    await suite.registry.local.deps.entries.deletion.beginDeletion("reborn", ["1.0.0"], "crashed-delete");
    const again = await uploadBundle(suite.registry.url, suite.registry.token, fixture.bundle);
    expect(again.status).toBe(200);
    suite.registry.local.deps.reader.invalidate();
    expect((await getJson("/tools/reborn")).body.version).toBe("1.0.0");
    expect((await suite.registry.local.deps.entries.reads.readPartition("reborn")).pointer?.kind).toBe("pointer");
  });
});
