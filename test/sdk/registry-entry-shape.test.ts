/**
 * What a registry answers is checked for shape before it names a file (docs/sdk.md#cache-and-integrity):
 * a hostile registry in the middle answering a digest such as `../../planted`, another tool's id,
 * a version with a path in it, or an owner that is not a publisher name gets REGISTRY_ENTRY_INVALID,
 * and nothing of it is run, written or read; the same tool through the honest registry still runs.
 */
import { existsSync } from "node:fs";
import { mkdir, readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AgentTools, AgentToolsError } from "@agent-tools/sdk";
import { startTestRegistry, type TestRegistry } from "../support/registry.js";
import { startTamperingProxy, type TamperingProxy } from "./support/tampering-proxy.js";
import { TempDirs } from "./support/temp-dirs.js";
import { publishVersionAnswering } from "./support/version-answering-tool.js";

let registry: TestRegistry;
let proxy: TamperingProxy;
let rewrite: (entry: Record<string, unknown>) => Record<string, unknown> = (entry) => entry;
const tempDirs = new TempDirs();

beforeAll(async () => {
  registry = await startTestRegistry();
  proxy = await startTamperingProxy(
    registry.url,
    (body) => (Array.isArray(body) ? body.map((entry) => rewrite(entry)) : rewrite(body)) as Record<string, unknown>,
  );
  await publishVersionAnswering(registry, "shaped-tool", "1.0.0");
  await publishVersionAnswering(registry, "other-tool", "1.0.0");
});
afterAll(async () => {
  await proxy?.close();
  await registry?.close();
  await tempDirs.removeAll();
});

/** A cache folder beside `planted/code/function.py` (`<cache>/trees/../../planted`), which must never run. */
async function cacheBesidePlantedCode(): Promise<{ cacheDir: string; marker: string }> {
  const root = await tempDirs.make("agent-tools-entry-shape-");
  const marker = join(root, "planted-ran");
  await mkdir(join(root, "planted", "code"), { recursive: true });
  await writeFile(
    join(root, "planted", "code", "function.py"),
    `class AgentSpaceV1Tool:\n    def __init__(self, tool_id, tool_data):\n        open(${JSON.stringify(marker)}, ` +
      `"w").write("ran")\n\n    def execute(self, input_data):\n        return "planted"\n`,
  );
  const cacheDir = join(root, "cache");
  await mkdir(cacheDir, { recursive: true });
  return { cacheDir, marker };
}

const HOSTILE: { what: string; change: (entry: Record<string, unknown>) => Record<string, unknown>; mentions: RegExp }[] = [
  {
    what: "a digest that climbs out of the cache",
    change: (entry) => ({ ...entry, tool_archive_sha256: "../../planted" }),
    mentions: /its tool_archive_sha256 "\.\.\/\.\.\/planted" is not 64 hexadecimal digits/,
  },
  { what: "an absolute digest", change: (entry) => ({ ...entry, tool_archive_sha256: "/etc" }), mentions: /tool_archive_sha256 "\/etc"/ },
  { what: "a digest that is not text", change: (entry) => ({ ...entry, tool_archive_sha256: ["a"] }), mentions: /\(a list\) is not 64/ },
  {
    what: "another tool's entry",
    change: (entry) => ({ ...entry, tool_id: "other-tool" }),
    mentions: /"other-tool" is not the tool asked for/,
  },
  { what: "a tool id with a path", change: (entry) => ({ ...entry, tool_id: "../x" }), mentions: /its tool_id "\.\.\/x" is not a tool id/ },
  { what: "a version with a path", change: (entry) => ({ ...entry, version: "../../1.0.0" }), mentions: /is not a semantic version/ },
  {
    what: "an owner with a path",
    change: (entry) => ({ ...entry, owner: "../../etc" }),
    mentions: /its owner "\.\.\/\.\.\/etc" is not a publisher/,
  },
  { what: "not an object", change: () => [] as unknown as Record<string, unknown>, mentions: /it is not a JSON object/ },
];

describe("entries from a hostile registry", () => {
  for (const { what, change, mentions } of HOSTILE) {
    it(`are refused before they touch the cache: ${what}`, async () => {
      const { cacheDir, marker } = await cacheBesidePlantedCode();
      const tools = new AgentTools({ toolsDbUrl: proxy.url, cacheDir, sandbox: "off" });
      rewrite = change;
      try {
        for (const ref of ["shaped-tool", "shaped-tool@1.0.0"]) {
          const error = await tools.executeToolById(ref, {}).catch((caught: unknown) => caught);
          expect(error, ref).toBeInstanceOf(AgentToolsError);
          expect((error as AgentToolsError).code, ref).toBe("REGISTRY_ENTRY_INVALID");
          expect((error as Error).message).toMatch(mentions);
          expect((error as Error).message).toContain(`answered a malformed entry for tool "shaped-tool"`);
        }
        expect(existsSync(marker)).toBe(false);
        expect(await readdir(cacheDir)).toEqual([]);
      } finally {
        rewrite = (entry) => entry;
        await tools.close();
      }
    });
  }

  it("leave the instance usable: the honest entry runs next, and an upper-case digest is read as the same digest", async () => {
    const { cacheDir, marker } = await cacheBesidePlantedCode();
    const tools = new AgentTools({ toolsDbUrl: proxy.url, cacheDir, sandbox: "off" });
    rewrite = (entry) => ({ ...entry, tool_archive_sha256: "../../planted" });
    expect(await tools.add("shaped-tool").catch((error: AgentToolsError) => error.code)).toBe("REGISTRY_ENTRY_INVALID");
    rewrite = (entry) => ({ ...entry, tool_archive_sha256: String(entry.tool_archive_sha256).toUpperCase() });
    expect(await tools.executeToolById("shaped-tool", {})).toBe("1.0.0");
    rewrite = (entry) => entry;
    expect(existsSync(marker)).toBe(false);
    await tools.close();
  });
});
