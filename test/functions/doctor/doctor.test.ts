// The doctor: each kind of damage a crash can leave is found, repaired with --fix, and a second run
// is clean; through the CLI against a running registry, and as `npm run doctor` on a data folder.
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { DeleteObjectCommand, PutObjectCommand } from "@aws-sdk/client-s3";
import { DeleteCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { describe, expect, it } from "vitest";
import { runDoctor } from "../../../functions/doctor/run-doctor.js";
import { pointerOrder } from "../../../functions/entry/version-rank.js";
import { ArchiveStore } from "../../../functions/storage/archive-store.js";
import { createDynamoDocumentClient, createS3Client } from "../../../functions/storage/aws-clients.js";
import { LATEST_SORT_KEY } from "../../../functions/storage/table-schema.js";
import { runCli } from "../../../sdk/src/cli/run-cli.js";
import { buildBundle, FIXTURE_TOOLS_DIR, readFixtureSpec, zipFiles } from "../../support/bundles.js";
import { startTestRegistry, uploadBundle } from "../../support/registry.js";
import { registryForFile } from "../../support/registry-for-file.js";
import { withIndexFaults, type StoredItem } from "../storage/dynalite-index-faults.js";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const suite = registryForFile();

/** A bundle with its own archive bytes. */
function bundle(toolId: string, version = "1.0.0"): { bundle: Uint8Array; toolZip: Uint8Array } {
  const toolZip = zipFiles({
    "code/function.py": readFileSync(join(FIXTURE_TOOLS_DIR, "text-stats/code/function.py")),
    "code/id.txt": `${toolId}@${version}`,
  });
  const spec = { ...readFixtureSpec("text-stats"), tool_id: toolId, tool_metadata: { version } };
  return { bundle: buildBundle({ spec, toolZip, toolMd: `# ${toolId}\n` }), toolZip };
}

async function publish(toolId: string, version = "1.0.0"): Promise<Uint8Array> {
  const built = bundle(toolId, version);
  expect((await uploadBundle(suite.registry.url, suite.registry.token, built.bundle)).status).toBe(200);
  return built.toolZip;
}

/** Damage of every kind, made with raw storage calls as a crash would leave it. */
async function damage(): Promise<void> {
  const { config } = suite.registry.local;
  const db = createDynamoDocumentClient(config);
  const s3 = createS3Client(config);
  try {
    await publish("healthy");
    await publish("pointerless");
    await db.send(new DeleteCommand({ TableName: config.tableName, Key: { tool_id: "pointerless", version: LATEST_SORT_KEY } }));
    await publish("half-published");
    await db.send(
      new UpdateCommand({
        TableName: config.tableName,
        Key: { tool_id: "half-published", version: "1.0.0" },
        UpdateExpression: "SET #s = :p",
        ExpressionAttributeNames: { "#s": "state" },
        ExpressionAttributeValues: { ":p": "pending" },
      }),
    );
    await publish("half-deleted");
    await suite.registry.local.deps.entries.deletion.beginDeletion("half-deleted", ["1.0.0"], "crashed");
    const lost = await publish("lost-archive");
    await s3.send(
      new DeleteObjectCommand({ Bucket: config.bucketName, Key: ArchiveStore.key(createHash("sha256").update(lost).digest("hex")) }),
    );
    const orphan = new TextEncoder().encode("bytes no version references");
    await s3.send(
      new PutObjectCommand({
        Bucket: config.bucketName,
        Key: ArchiveStore.key(createHash("sha256").update(orphan).digest("hex")),
        Body: orphan,
        ContentLength: orphan.byteLength,
      }),
    );
  } finally {
    db.destroy();
    s3.destroy();
  }
  suite.registry.local.deps.reader.invalidate();
}

describe("registry doctor", () => {
  it("finds every kind of damage, repairs what storage can, and is clean afterwards", async () => {
    await damage();
    const found = await runDoctor(suite.registry.local.deps, { graceSeconds: 0 });
    expect(found.findings.map((finding) => `${finding.kind} ${finding.toolId ?? ""}`).sort()).toEqual(
      expect.arrayContaining(
        [
          "missing-pointer pointerless",
          "unfinished-publish half-published",
          "unfinished-delete half-deleted",
          "orphaned-archive ",
          "missing-archive ",
        ].sort(),
      ),
    );
    expect(found.findings.every((finding) => !finding.fixed)).toBe(true);

    const fixed = await runDoctor(suite.registry.local.deps, { fix: true, graceSeconds: 0 });
    expect(fixed.findings.filter((finding) => !finding.fixed).map((finding) => finding.kind)).toEqual(["missing-archive"]);
    const again = await runDoctor(suite.registry.local.deps, { graceSeconds: 0 });
    expect(again.findings.map((finding) => finding.kind)).toEqual(["missing-archive"]);

    expect((await (await fetch(`${suite.registry.url}/tools/pointerless`)).json()) as object).toMatchObject({ version: "1.0.0" });
    expect((await suite.registry.local.deps.entries.reads.getStoredVersion("half-published", "1.0.0"))?.pending).toBe(false);
    expect((await fetch(`${suite.registry.url}/tools/half-deleted`)).status).toBe(404);
    // The missing archive comes back with the same bundle.
    expect((await uploadBundle(suite.registry.url, suite.registry.token, bundle("lost-archive").bundle)).status).toBe(200);
    expect((await runDoctor(suite.registry.local.deps, { graceSeconds: 0, verifyArchives: true })).findings).toEqual([]);
  });

  it("leaves young orphans alone (an upload may be in flight)", async () => {
    const young = new TextEncoder().encode("just written by an upload in flight");
    const s3 = createS3Client(suite.registry.local.config);
    await s3.send(
      new PutObjectCommand({
        Bucket: suite.registry.local.config.bucketName,
        Key: ArchiveStore.key(createHash("sha256").update(young).digest("hex")),
        Body: young,
        ContentLength: young.byteLength,
      }),
    );
    s3.destroy();
    expect((await runDoctor(suite.registry.local.deps, { fix: true })).findings).toEqual([]);
    expect((await runDoctor(suite.registry.local.deps, { fix: true, graceSeconds: 0 })).findings.map((finding) => finding.kind)).toEqual([
      "orphaned-archive",
    ]);
  });

  it("runs as `agent-tools registry doctor [--fix]` against the running registry", async () => {
    await publish("cli-pointerless");
    const db = createDynamoDocumentClient(suite.registry.local.config);
    await db.send(
      new DeleteCommand({
        TableName: suite.registry.local.config.tableName,
        Key: { tool_id: "cli-pointerless", version: LATEST_SORT_KEY },
      }),
    );
    db.destroy();
    const out: string[] = [];
    const io = { out: (text: string) => void out.push(text), err: (text: string) => void out.push(text), cwd: ROOT };
    const args = ["--registry", suite.registry.url, "registry", "doctor", "--token", suite.registry.token, "--grace", "0"];
    expect(await runCli(args, io)).toBe(1);
    expect(out.join("")).toMatch(/found\s+missing-pointer cli-pointerless/);
    expect(out.join("")).toMatch(/run again with --fix/);
    out.length = 0;
    expect(await runCli([...args, "--fix"], io)).toBe(0);
    expect(out.join("")).toMatch(/fixed\s+missing-pointer cli-pointerless/);
    out.length = 0;
    expect(await runCli(args, io)).toBe(0);
    expect(out.join("")).toMatch(/nothing to repair/);
    expect(await runCli(["--registry", suite.registry.url, "registry", "doctor", "--token", "wrong"], io)).toBe(1);
    out.length = 0;
    // A usage mistake goes through the CLI's own exit handling (status 2, the message on its error stream), like every command's.
    expect(
      await runCli(["--registry", suite.registry.url, "registry", "doctor", "--token", suite.registry.token, "--grace", "soon"], io),
    ).toBe(2);
    expect(out.join("")).toMatch(/option '--grace <seconds>' argument 'soon' is invalid\. expected a whole number of seconds/);
  });

  it("refuses bad doctor requests with 400", async () => {
    for (const body of ['{"fix":"yes"}', '{"graceSeconds":-1}', '{"other":1}', "[1]"]) {
      const response = await fetch(`${suite.registry.url}/registry/doctor`, {
        method: "POST",
        headers: { authorization: `Bearer ${suite.registry.token}`, "content-type": "application/json" },
        body,
      });
      expect(response.status, body).toBe(400);
    }
  });
});

describe("registry doctor against lying indexes", () => {
  const S = (value: string) => ({ S: value });
  const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");
  const listedIds = async (url: string) =>
    ((await (await fetch(`${url}/tools`)).json()) as { tool_id: string; version: string }[]).map(
      (entry) => `${entry.tool_id}@${entry.version}`,
    );

  it("trusts only the table's items: finds and repairs phantom and " +
    "missing index entries, ignores archive-index phantoms, and converges", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), "agent-tools-lying-index-"));
    let running = await startTestRegistry({ dataDir });
    try {
      const publishOn = async (toolId: string) => {
        const built = bundle(toolId);
        expect((await uploadBundle(running.url, running.token, built.bundle)).status).toBe(200);
        return sha256(built.toolZip);
      };
      await publishOn("kept");
      await publishOn("unlisted");
      await publishOn("stale-listed");
      await publishOn("unindexed");
      const shared = await publishOn("shared-phantom");
      // An orphan archive that an index entry names, as a publish killed after dynalite's index write leaves it.
      const orphan = new TextEncoder().encode("bytes whose version item never landed");
      const s3 = createS3Client(running.local.config);
      await s3.send(
        new PutObjectCommand({
          Bucket: running.local.config.bucketName,
          Key: ArchiveStore.key(sha256(orphan)),
          Body: orphan,
          ContentLength: orphan.byteLength,
        }),
      );
      s3.destroy();
      const { tableName } = running.local.config;
      await running.local.close();

      await withIndexFaults(dataDir, tableName, async (faults) => {
        const pointerOf = async (toolId: string) => (await faults.readItem({ tool_id: S(toolId), version: S(LATEST_SORT_KEY) }))!;
        /** A pointer item with some of its entry's fields changed (the listing shows the entry). */
        const withEntry = (item: StoredItem, fields: Record<string, string>, top: Record<string, string> = {}): StoredItem => {
          const entry = (item.entry as { M: StoredItem }).M;
          return {
            ...item,
            ...Object.fromEntries(Object.entries(top).map(([name, value]) => [name, S(value)])),
            entry: { M: { ...entry, ...Object.fromEntries(Object.entries(fields).map(([name, value]) => [name, S(value)])) } },
          };
        };
        // A first publish killed between the pointer's index entry and the pointer: a tool listed that was never stored.
        await faults.addIndexEntries(withEntry(await pointerOf("kept"), { tool_id: "ghost-listed" }, { tool_id: "ghost-listed" }));
        // A new version's pointer write killed the same way: the listing shows 2.0.0, the table 1.0.0.
        const stale = await pointerOf("stale-listed");
        const updated = String(((stale.entry as { M: StoredItem }).M.updated_at as { S: string }).S);
        await faults.addIndexEntries(
          withEntry(stale, { version: "2.0.0" }, { latest_version: "2.0.0", latest_order: pointerOrder("2.0.0", updated) }),
        );
        // A delete's index removal with the kill before the item's: the pointer stays, unlisted.
        await faults.removeIndexEntries(await pointerOf("unlisted"));
        // The same for a version item's archive reference.
        await faults.removeIndexEntries((await faults.readItem({ tool_id: S("unindexed"), version: S("1.0.0") }))!);
        // Archive-index phantoms: one naming the orphan, one naming a live archive under a version that does not exist.
        const phantom = (toolId: string, sha: string): StoredItem => ({
          tool_id: S(toolId),
          version: S("9.9.9"),
          tool_archive_sha256: S(sha),
        });
        await faults.addIndexEntries(phantom("ghost-version", sha256(orphan)));
        await faults.addIndexEntries(phantom("shared-phantom", shared));
      });

      running = await startTestRegistry({ dataDir });
      const truth = ["kept@1.0.0", "shared-phantom@1.0.0", "stale-listed@1.0.0", "unindexed@1.0.0", "unlisted@1.0.0"];
      // Readers list from the stored listing, not the index (docs/deployment.md#listing-without-a-hot-partition):
      // no ghost, no wrong latest, no missing tool, although the index has all three.
      expect(await listedIds(running.url)).toEqual(truth);

      const summary = (report: { findings: { kind: string; toolId?: string; sha256?: string; fixed: boolean }[] }) =>
        report.findings.map((finding) => `${finding.kind} ${finding.toolId ?? finding.sha256?.slice(0, 8)} ${finding.fixed}`).sort();
      const found = await runDoctor(running.local.deps, { graceSeconds: 0 });
      expect(summary(found)).toEqual(
        [
          "missing-index-entry unindexed false",
          "missing-index-entry unlisted false",
          `orphaned-archive ${sha256(orphan).slice(0, 8)} false`,
          "phantom-index-entry ghost-listed false",
          "phantom-index-entry stale-listed false",
        ].sort(),
      );
      const fixed = await runDoctor(running.local.deps, { graceSeconds: 0, fix: true });
      expect(summary(fixed)).toEqual(summary(found).map((line) => line.replace(/false$/, "true")));
      expect((await runDoctor(running.local.deps, { graceSeconds: 0, verifyArchives: true })).findings).toEqual([]);
      expect(await listedIds(running.url)).toEqual(truth);

      // A delete decides from the table too: the phantom reference does not keep the archive.
      expect(
        (await fetch(`${running.url}/tools/shared-phantom`, { method: "DELETE", headers: { authorization: `Bearer ${running.token}` } }))
          .status,
      ).toBe(200);
      expect(await running.local.deps.archives.exists(shared)).toBe(false);
      expect((await runDoctor(running.local.deps, { graceSeconds: 0 })).findings).toEqual([]);
    } finally {
      await running.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe("npm run doctor", () => {
  it("checks and repairs a stopped registry's data folder", async () => {
    const stopped = await startTestRegistry();
    const { dataDir } = stopped;
    const db = createDynamoDocumentClient(stopped.local.config);
    const toolZip = bundle("offline").bundle;
    expect((await uploadBundle(stopped.url, stopped.token, toolZip)).status).toBe(200);
    await db.send(new DeleteCommand({ TableName: stopped.local.config.tableName, Key: { tool_id: "offline", version: LATEST_SORT_KEY } }));
    db.destroy();
    await stopped.local.close();
    const run = (args: string[]) =>
      promisify(execFile)("npm", ["run", "--silent", "doctor", "--", "--data-dir", dataDir, "--grace", "0", ...args], { cwd: ROOT }).then(
        ({ stdout }) => ({ code: 0, stdout }),
        (error: { code: number; stdout: string }) => ({ code: error.code, stdout: error.stdout }),
      );
    const found = await run([]);
    expect(found.code).toBe(1);
    expect(found.stdout).toMatch(/missing-pointer offline/);
    const fixed = await run(["--fix", "--json"]);
    expect(fixed.code).toBe(0);
    expect(JSON.parse(fixed.stdout)).toMatchObject({
      fix: true,
      toolsChecked: 1,
      findings: [{ kind: "missing-pointer", toolId: "offline", fixed: true }],
    });
    await stopped.close();
  }, 60_000);
});
