// The scheduled repair against the emulators: the incremental run checks only the tools the audit log
// names since its checkpoint and finds what a crash left there; the full pass, cut short by its budget,
// resumes where it stopped on the next run and reads every item exactly once over the two.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ListObjectsV2Command } from "@aws-sdk/client-s3";
import { DeleteCommand, QueryCommand, ScanCommand, UpdateCommand, type DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DoctorFinding } from "../../../functions/doctor/doctor-report.js";
import type { Budget, SweepDeps } from "../../../functions/doctor/sweep-options.js";
import { runSweep } from "../../../functions/doctor/sweep.js";
import type { PublishedEntry } from "../../../functions/entry/published-entry.js";
import { ARCHIVES_PREFIX } from "../../../functions/storage/archive-store.js";
import { createDynamoDocumentClient, createS3Client } from "../../../functions/storage/aws-clients.js";
import { RepairStore } from "../../../functions/storage/repair-store.js";
import { LATEST_CATALOG, LATEST_INDEX, LATEST_SORT_KEY } from "../../../functions/storage/table-schema.js";
import { buildBundle, FIXTURE_TOOLS_DIR, readFixtureSpec, zipFiles } from "../../support/bundles.js";
import { uploadBundle } from "../../support/registry.js";
import { registryForFile } from "../../support/registry-for-file.js";

const suite = registryForFile();
let db: DynamoDBDocumentClient;
let deps: SweepDeps;
const unlimited: Budget = { exhausted: () => false };
/** Events are taken at once: a test has no upload in flight. */
const settledAtOnce = { graceSeconds: 0, settleSeconds: 0 };

beforeAll(() => {
  db = createDynamoDocumentClient(suite.registry.local.config);
  deps = { ...suite.registry.local.deps, repair: new RepairStore(db, suite.registry.local.config.tableName) };
});
afterAll(() => db?.destroy());

async function publish(toolId: string): Promise<void> {
  const toolZip = zipFiles({
    "code/function.py": readFileSync(join(FIXTURE_TOOLS_DIR, "text-stats/code/function.py")),
    "code/id.txt": toolId,
  });
  const spec = { ...readFixtureSpec("text-stats"), tool_id: toolId, tool_metadata: { version: "1.0.0" } };
  expect(
    (await uploadBundle(suite.registry.url, suite.registry.token, buildBundle({ spec, toolZip, toolMd: `# ${toolId}\n` }))).status,
  ).toBe(200);
}

/** What a crash between a publish's version item and its pointer leaves (as the doctor's own tests make it). */
async function losePointer(toolId: string): Promise<void> {
  await db.send(
    new DeleteCommand({ TableName: suite.registry.local.config.tableName, Key: { tool_id: toolId, version: LATEST_SORT_KEY } }),
  );
}

async function leavePending(toolId: string, version: string): Promise<void> {
  await db.send(
    new UpdateCommand({
      TableName: suite.registry.local.config.tableName,
      Key: { tool_id: toolId, version },
      UpdateExpression: "SET #s = :p",
      ExpressionAttributeNames: { "#s": "state" },
      ExpressionAttributeValues: { ":p": "pending" },
    }),
  );
}

function named(findings: readonly DoctorFinding[]): string[] {
  return findings.map((finding) => `${finding.kind} ${finding.toolId ?? ""}`).sort();
}

/** A budget spent after `checks` looks: a run that stops part way, as one at its timeout does. */
function budgetOf(checks: number): Budget {
  let left = checks;
  return { exhausted: () => left-- <= 0 };
}

async function countAll(input: { index?: boolean }): Promise<number> {
  const { tableName } = suite.registry.local.config;
  let count = 0;
  let start: Record<string, unknown> | undefined;
  do {
    const page = input.index
      ? await db.send(
          new QueryCommand({
            TableName: tableName,
            IndexName: LATEST_INDEX.name,
            KeyConditionExpression: "#p = :p",
            ExpressionAttributeNames: { "#p": LATEST_INDEX.partition },
            ExpressionAttributeValues: { ":p": LATEST_CATALOG },
            Select: "COUNT",
            ExclusiveStartKey: start,
          }),
        )
      : await db.send(new ScanCommand({ TableName: tableName, Select: "COUNT", ExclusiveStartKey: start }));
    count += page.Count ?? 0;
    start = page.LastEvaluatedKey;
  } while (start);
  return count;
}

async function countArchives(): Promise<number> {
  const s3 = createS3Client(suite.registry.local.config);
  try {
    const listed = await s3.send(new ListObjectsV2Command({ Bucket: suite.registry.local.config.bucketName, Prefix: ARCHIVES_PREFIX }));
    // Only archive objects (the emulator's folder marker `archives/.keep` is none).
    return (listed.Contents ?? []).filter((object) => /^archives\/[0-9a-f]{64}$/.test(object.Key ?? "")).length;
  } finally {
    s3.destroy();
  }
}

describe("incremental repair", () => {
  it("checks only the tools written since its checkpoint, finds what a crash left there, and moves on", async () => {
    await publish("quiet-tool");
    const first = await runSweep(deps, { fix: true, budget: unlimited, incrementalOnly: true, ...settledAtOnce });
    expect(first.incremental.finished).toBe(true);
    expect(first.findings).toEqual([]);

    // Damage no request announced (a raw write): only the full pass can meet it.
    await losePointer("quiet-tool");
    await publish("changed-healthy");
    await publish("changed-broken");
    await publish("changed-pending");
    await losePointer("changed-broken");
    await leavePending("changed-pending", "1.0.0");

    const second = await runSweep(deps, { fix: true, budget: unlimited, incrementalOnly: true, ...settledAtOnce });
    expect(second.incremental.toolsChecked).toBe(3);
    expect(named(second.findings)).toEqual(["missing-pointer changed-broken", "unfinished-publish changed-pending"]);
    expect(second.findings.every((finding) => finding.fixed)).toBe(true);
    expect((await (await fetch(`${suite.registry.url}/tools/changed-broken`)).json()) as object).toMatchObject({ version: "1.0.0" });
    expect((await deps.entries.reads.getStoredVersion("changed-pending", "1.0.0"))?.pending).toBe(false);

    // Nothing written since: nothing to check.
    const third = await runSweep(deps, { fix: true, budget: unlimited, incrementalOnly: true, ...settledAtOnce });
    expect(third.incremental.toolsChecked).toBe(0);
    expect(third.findings).toEqual([]);

    // The full pass meets the damage no event named.
    const full = await runSweep(deps, { fix: true, budget: unlimited, ...settledAtOnce });
    expect(full.fullPass.finished).toBe(true);
    expect(named(full.findings)).toEqual(["missing-pointer quiet-tool"]);
  });

  it("names a deleted tool's id at once, so a delete cut short is found by the next run", async () => {
    await publish("delete-cut-short");
    await runSweep(deps, { fix: true, budget: unlimited, incrementalOnly: true, ...settledAtOnce });
    // A delete that stopped after its tombstone: the request's event named the tool before it wrote.
    const response = await fetch(`${suite.registry.url}/tools/delete-cut-short`, {
      method: "DELETE",
      headers: { authorization: `Bearer ${suite.registry.token}` },
    });
    expect(response.status).toBe(200);
    await deps.entries.versions.putVersion({ ...(await stored("quiet-tool")), tool_id: "delete-cut-short" }, "digest");
    await deps.entries.deletion.beginDeletion("delete-cut-short", ["1.0.0"], "crashed");
    const run = await runSweep(deps, { fix: true, budget: unlimited, incrementalOnly: true, ...settledAtOnce });
    expect(named(run.findings)).toEqual(["unfinished-delete delete-cut-short"]);
    expect((await deps.entries.reads.readPartition("delete-cut-short")).versions).toEqual([]);
  });
});

async function stored(toolId: string): Promise<PublishedEntry> {
  const version = await deps.entries.reads.getStoredVersion(toolId, "1.0.0");
  if (version === undefined) throw new Error(`${toolId}@1.0.0 is not stored`);
  return version.entry;
}

describe("full pass", () => {
  it("stops at its budget, resumes where it stopped on the next run, and reads every item once over both", async () => {
    const base = await stored("changed-healthy");
    const seeded = Array.from({ length: 120 }, (_, index) => `seeded-${String(index).padStart(3, "0")}`);
    for (const toolId of seeded) {
      const entry = { ...base, tool_id: toolId };
      await deps.entries.versions.putVersion(entry, "digest");
      await deps.entries.pointer.advancePointer(entry);
      await deps.entries.versions.markPublished(toolId, entry.version);
    }
    await losePointer("seeded-017");
    await leavePending("seeded-093", "1.0.0");
    const options = { fix: false, pageSize: 20, fullPassEverySeconds: 0, ...settledAtOnce };

    const cut = await runSweep(deps, { ...options, budget: budgetOf(3) });
    expect(cut.fullPass.finished).toBe(false);
    expect(cut.fullPass.pages).toBeGreaterThan(0);
    const rest = await runSweep(deps, { ...options, budget: unlimited });
    expect(rest.fullPass.finished).toBe(true);
    expect(rest.fullPass.startedAt).toBe(cut.fullPass.startedAt);

    // Every table item, listing entry and archive object read once (nothing was repaired: no item came or went).
    const items = (await countAll({})) + (await countAll({ index: true })) + (await countArchives());
    expect(cut.fullPass.itemsRead + rest.fullPass.itemsRead).toBe(items);
    const tools = new Set(
      (await db.send(new ScanCommand({ TableName: suite.registry.local.config.tableName, ProjectionExpression: "tool_id" }))).Items?.map(
        (item) => String(item.tool_id),
      ).filter((id) => !id.startsWith("#")),
    );
    expect(cut.fullPass.toolsChecked + rest.fullPass.toolsChecked).toBe(tools.size);
    expect(named([...cut.findings, ...rest.findings])).toEqual(
      expect.arrayContaining(["missing-pointer seeded-017", "unfinished-publish seeded-093"]),
    );

    // A pass that finished is not due again until its period is over.
    const idle = await runSweep(deps, { ...options, fullPassEverySeconds: 3600, budget: unlimited });
    expect(idle.fullPass).toMatchObject({ toolsChecked: 0, itemsRead: 0 });
    expect(idle.fullPass.startedAt).toBeUndefined();
  });
});
