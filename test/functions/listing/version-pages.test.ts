// GET /tools/{id}/versions at thousands of versions answers pages bounded by count and by bytes
// (Lambda's 6 MB response limit), continued by opaque, validated cursors in `Link: rel="next"`;
// the SDK and the CLI follow them.
import { BatchWriteCommand } from "@aws-sdk/lib-dynamodb";
import semver from "semver";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RegistryClient } from "../../../sdk/src/registry-client/registry-client.js";
import { runCli } from "../../../sdk/src/cli/run-cli.js";
import { entryFromSpec } from "../../../functions/entry/tool-entry.js";
import { versionRank } from "../../../functions/entry/version-rank.js";
import { MAX_PAGE_ITEMS } from "../../../functions/listing/bounded-page.js";
import { createDynamoDocumentClient } from "../../../functions/storage/aws-clients.js";
import { LATEST_CATALOG, LATEST_SORT_KEY } from "../../../functions/storage/table-schema.js";
import { startTestRegistry, type TestRegistry } from "../../support/registry.js";
import { announceBulkWrite } from "../../support/bulk-write.js";
import { expectLambdaPageWithinLimit, FORGED_CURSORS, nextCursor, nextLink, walkPages } from "./page-walk.js";

const MANY = 2_500;
/** Versions with a 250 KB man page each: together about 7.5 MB (more once escaped), so pages are cut by bytes. */
const LARGE = 30;

let registry: TestRegistry;

const versionsOf = (count: number) => Array.from({ length: count }, (_, i) => `${Math.floor(i / 100)}.${i % 100}.${i % 7}`);
const manyVersions = versionsOf(MANY);
const largeVersions = versionsOf(LARGE);
const yankedTool = versionsOf(30).map((version, i) => ({ version, yanked: i % 3 === 0 }));
const newestFirst = (versions: string[]) => [...versions].sort(semver.rcompare);

/** Stores `versions` of `toolId` as published versions, the latest pointer on the highest that is not yanked. */
async function seedVersions(toolId: string, versions: { version: string; yanked?: boolean }[], manPage = "# versions\n"): Promise<void> {
  const db = createDynamoDocumentClient(registry.local.config);
  const { tool_source_code_link: _perRequest, ...fields } = entryFromSpec({
    tool_id: toolId,
    tool_type: "demo",
    tool_man_page_doc: manPage,
  });
  const entryOf = ({ version, yanked }: { version: string; yanked?: boolean }) => ({
    ...fields,
    tool_id: toolId,
    version,
    tool_archive_sha256: "0".repeat(64),
    tool_archive_integrity: "sha512-",
    tool_archive_size: 0,
    published_at: "2026-01-01T00:00:00.000Z",
    updated_at: "2026-01-01T00:00:00.000Z",
    ...(yanked ? { status: "yanked" as const, status_reason: "seeded" } : {}),
  });
  const latest = entryOf(versions.filter((v) => !v.yanked).sort((a, b) => semver.rcompare(a.version, b.version))[0]!);
  const items: Record<string, unknown>[] = [
    ...versions.map((v) => ({
      tool_id: toolId,
      version: v.version,
      entry: entryOf(v),
      tool_archive_sha256: "0".repeat(64),
      version_rank: versionRank(v.version),
    })),
    { tool_id: toolId, version: LATEST_SORT_KEY, catalog: LATEST_CATALOG, latest_version: latest.version, entry: latest },
  ];
  const table = registry.local.config.tableName;
  for (let start = 0; start < items.length; start += 25) {
    let requests = items.slice(start, start + 25).map((Item) => ({ PutRequest: { Item } }));
    while (requests.length > 0) {
      const result = await db.send(new BatchWriteCommand({ RequestItems: { [table]: requests } }));
      requests = (result.UnprocessedItems?.[table] ?? []) as typeof requests;
    }
  }
  db.destroy();
  await announceBulkWrite(registry.local);
}

beforeAll(async () => {
  registry = await startTestRegistry({ searchIndexDelayMs: 3_600_000 });
  await seedVersions(
    "many-versions",
    manyVersions.map((version) => ({ version })),
  );
  await seedVersions(
    "large-versions",
    largeVersions.map((version) => ({ version })),
    `# large\n${'A "quoted" line of reference text.\n'.repeat(7_000)}`,
  );
  await seedVersions("yanked-versions", yankedTool);
}, 120_000);

afterAll(async () => {
  await registry?.close();
});

/** Follows `Link: rel="next"` from `path` to the end; the versions in order and each page's size. */
async function walk(path: string, limit = MAX_PAGE_ITEMS): Promise<{ versions: string[]; pages: number[] }> {
  const { items, pages } = await walkPages<{ version: string }>(`${registry.url}${path}`, limit);
  expect(pages.every((size) => size > 0)).toBe(true);
  return { versions: items.map((entry) => entry.version), pages };
}

describe("version pages", () => {
  it("reaches all 2,500 versions by following Link, 1,000 per page by default, each once, highest first", async () => {
    const { versions, pages } = await walk("/tools/many-versions/versions");
    expect(versions).toEqual(newestFirst(manyVersions));
    expect(pages).toEqual([1000, 1000, 500]);
  });

  it("keeps limit and include_yanked in the Link it sends", async () => {
    const { versions, pages } = await walk("/tools/many-versions/versions?limit=700&include_yanked=true", 700);
    expect(versions).toEqual(newestFirst(manyVersions));
    expect(pages).toEqual([700, 700, 700, 400]);
  });

  it("cuts pages by bytes when versions are large, and still serves every one", async () => {
    const { versions, pages } = await walk("/tools/large-versions/versions");
    expect(versions).toEqual(newestFirst(largeVersions));
    expect(pages.length).toBeGreaterThan(1);
    expect(pages[0]!).toBeLessThan(LARGE);
  });

  it("pages the versions a reader may see: yanked ones only with include_yanked=true", async () => {
    const visible = yankedTool.filter((v) => !v.yanked).map((v) => v.version);
    expect((await walk("/tools/yanked-versions/versions?limit=4", 4)).versions).toEqual(newestFirst(visible));
    const all = yankedTool.map((v) => v.version);
    expect((await walk("/tools/yanked-versions/versions?limit=4&include_yanked=true", 4)).versions).toEqual(newestFirst(all));
  });

  it("continues below the version a page ended on when that version was deleted meanwhile", async () => {
    const first = await fetch(`${registry.url}/tools/yanked-versions/versions?limit=3&include_yanked=true`);
    const page = (await first.json()) as { version: string }[];
    const last = page.at(-1)!.version;
    await registry.local.deps.entries.deletion.deleteVersions("yanked-versions", [last]);
    await announceBulkWrite(registry.local);
    const next = await fetch(nextLink(first)!);
    expect(next.status).toBe(200);
    const expected = newestFirst(yankedTool.map((v) => v.version)).filter((version) => version !== last);
    expect(((await next.json()) as { version: string }[]).map((entry) => entry.version)).toEqual(expected.slice(2, 5));
  });

  it("keeps the fetch Lambda's answer under its 6 MB response limit", async () => {
    await expectLambdaPageWithinLimit(registry, "/tools/large-versions/versions");
  });
});

describe("version cursors", () => {
  const firstCursor = (path: string) => nextCursor(`${registry.url}${path}`);
  const refusal = async (path: string) => {
    const response = await fetch(`${registry.url}${path}`);
    return { status: response.status, body: (await response.json()) as { error: string; detail: string } };
  };

  it.each(FORGED_CURSORS)("rejects %s with a 400 that says how to recover", async (_, forge) => {
    const cursor = await firstCursor("/tools/many-versions/versions?limit=10");
    const { status, body } = await refusal(`/tools/many-versions/versions?limit=10&cursor=${encodeURIComponent(forge(cursor))}`);
    expect(status).toBe(400);
    expect(body.error).toBe("Invalid cursor");
    expect(body.detail).toMatch(/omit cursor/);
  });

  it("rejects a cursor issued for another tool, other filters or another listing", async () => {
    const cursor = await firstCursor("/tools/many-versions/versions?limit=10");
    for (const path of ["/tools/large-versions/versions", "/tools/many-versions/versions?include_yanked=true", "/tools"]) {
      const { status, body } = await refusal(`${path}${path.includes("?") ? "&" : "?"}cursor=${encodeURIComponent(cursor)}`);
      expect(status, path).toBe(400);
      expect(body.detail).toMatch(/another listing or other filters/);
    }
    const fromTools = new URL(nextLink(await fetch(`${registry.url}/tools?limit=1`))!).searchParams.get("cursor")!;
    expect((await refusal(`/tools/many-versions/versions?cursor=${encodeURIComponent(fromTools)}`)).status).toBe(400);
  });

  it.each(["0", String(MAX_PAGE_ITEMS + 1), "ten", "-1"])("rejects limit=%s", async (limit) => {
    const { status, body } = await refusal(`/tools/many-versions/versions?limit=${limit}`);
    expect(status).toBe(400);
    expect(body.detail).toContain(`1 to ${MAX_PAGE_ITEMS}`);
  });
});

describe("clients follow the pages", () => {
  it("RegistryClient.listVersions answers every version", async () => {
    const versions = await new RegistryClient(registry.url).listVersions("many-versions");
    expect(versions.map((entry) => entry.version)).toEqual(newestFirst(manyVersions));
  });

  it("agent-tools versions prints every version", async () => {
    let out = "";
    const status = await runCli(["versions", "many-versions", "--registry", registry.url], {
      out: (text) => void (out += text),
      err: () => undefined,
      cwd: process.cwd(),
    });
    expect(status).toBe(0);
    expect(
      out
        .trim()
        .split("\n")
        .map((line) => line.split("\t")[0]),
    ).toEqual(newestFirst(manyVersions));
  });
});
