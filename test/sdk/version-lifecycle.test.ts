/**
 * Version lifecycle and release age in the SDK, against a real registry with real archives: a
 * deprecated version warns once, a yanked one runs only when pinned exactly, `minReleaseAgeHours`
 * keeps "latest" back to versions old enough. The statuses and publication times come from a
 * rewriting proxy in front of the registry, as a registry (or a hostile one) would present them.
 */
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AgentTools, ToolYankedError, TrustError, type ToolWarning } from "@agent-tools/sdk";
import { startTestRegistry, type TestRegistry } from "../support/registry.js";
import { startTamperingProxy, type TamperingProxy } from "./support/tampering-proxy.js";
import { TempDirs } from "./support/temp-dirs.js";
import { publishVersionAnswering } from "./support/version-answering-tool.js";

let registry: TestRegistry;
let proxy: TamperingProxy;
/** Fields the proxy adds to entries, by `tool_id@version`. */
const presented = new Map<string, Record<string, unknown>>();
const HOUR = 3_600_000;
const tempDirs = new TempDirs();

beforeAll(async () => {
  registry = await startTestRegistry();
  proxy = await startTamperingProxy(
    registry.url,
    (body) => (Array.isArray(body) ? body.map(present) : present(body)) as Record<string, unknown>,
  );
});
afterAll(async () => {
  await proxy?.close();
  await registry?.close();
  await tempDirs.removeAll();
});

function present(entry: Record<string, unknown>): Record<string, unknown> {
  return { ...entry, ...presented.get(`${String(entry.tool_id)}@${String(entry.version)}`) };
}

/** Publishes `toolId` at each version; each version's `execute` answers its version. */
async function publishVersions(toolId: string, versions: string[]): Promise<void> {
  for (const version of versions) await publishVersionAnswering(registry, toolId, version);
}

async function agent(options: ConstructorParameters<typeof AgentTools>[0] = {}) {
  const warnings: ToolWarning[] = [];
  const cacheDir = await tempDirs.make("agent-tools-lifecycle-");
  const tools = new AgentTools({
    toolsDbUrl: proxy.url,
    cacheDir,
    sandbox: "off",
    onWarning: (warning) => warnings.push(warning),
    ...options,
  });
  return { tools, warnings, cacheDir };
}

describe("version status", () => {
  it("warns once per deprecated version, with the publisher's message, and runs it", async () => {
    await publishVersions("deprecated-tool", ["1.0.0"]);
    presented.set("deprecated-tool@1.0.0", { status: "deprecated", status_message: "use other-tool instead" });
    const { tools, warnings } = await agent();
    await tools.add("deprecated-tool");
    expect(await tools.executeToolById("deprecated-tool", {})).toBe("1.0.0");
    await tools.add("deprecated-tool", { changed: true });
    await tools.add("deprecated-tool@1.0.0");
    expect(warnings).toEqual([
      {
        code: "TOOL_DEPRECATED",
        toolId: "deprecated-tool",
        version: "1.0.0",
        message: 'Tool "deprecated-tool" version 1.0.0 is deprecated: use other-tool instead. Move to a newer version when you can.',
      },
    ]);
    await tools.close();
  });

  it("refuses a yanked version reached as latest, before downloading it, and says how to go on", async () => {
    await publishVersions("yanked-tool", ["1.0.0"]);
    presented.set("yanked-tool@1.0.0", { status: "yanked", status_message: "leaks the API key" });
    const { tools, cacheDir, warnings } = await agent();
    const error = await tools.add("yanked-tool").catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ToolYankedError);
    expect(error).toMatchObject({ code: "TOOL_YANKED", toolId: "yanked-tool", version: "1.0.0", reason: "leaks the API key." });
    expect((error as Error).message).toBe(
      'Tool "yanked-tool" version 1.0.0 was yanked by its publisher: leaks the API key. Pick ' +
        'another version, or pin this one exactly with add("yanked-tool@1.0.0") if you must run it.',
    );
    expect(await readdir(join(cacheDir, "archives")).catch(() => [])).toEqual([]);
    // Pinned exactly, it runs: the user asked for those bytes.
    expect(warnings).toEqual([]);
    await tools.add("yanked-tool@1.0.0");
    expect(await tools.executeToolById("yanked-tool", {})).toBe("1.0.0");
    expect(warnings.map((warning) => warning.message)).toEqual([
      'Tool "yanked-tool" version 1.0.0 was yanked by its publisher: leaks the ' +
        "API key. It runs because you pinned it exactly; move to another version.",
    ]);
    await tools.close();
  });

  it("refuses malformed statuses from a hostile registry with a clear error, and stays usable", async () => {
    await publishVersions("hostile-status", ["1.0.0"]);
    const { tools } = await agent();
    for (const fields of [
      { status: 42 },
      { status: "gone" },
      { status: ["yanked"] },
      { status: "deprecated", status_message: { html: "<b>" } },
    ]) {
      presented.set("hostile-status@1.0.0", fields);
      const error = await tools.add("hostile-status").catch((caught: unknown) => caught);
      expect(error, JSON.stringify(fields)).toBeInstanceOf(TrustError);
      expect(error).toMatchObject({ code: "TOOL_STATUS_INVALID", toolId: "hostile-status" });
      expect((error as Error).message).toMatch(/Check that toolsDbUrl names an Agent Tools registry/);
    }
    presented.set("hostile-status@1.0.0", { status: "active" });
    await tools.add("hostile-status");
    expect(await tools.executeToolById("hostile-status", {})).toBe("1.0.0");
    await tools.close();
  });

  it("prints a hostile reason without its control characters, and cut to length", async () => {
    await publishVersions("escape-tool", ["1.0.0"]);
    presented.set("escape-tool@1.0.0", {
      status: "yanked",
      status_message: `\u001b[2J\u001b[31mall good\r\u2028rm -rf ~ ${"x".repeat(5000)}`,
    });
    const { tools } = await agent();
    const error = (await tools.add("escape-tool").catch((caught: unknown) => caught)) as ToolYankedError;
    expect(error.code).toBe("TOOL_YANKED");
    expect(Array.from(error.message).filter((character) => character < " " || character === "\u2028")).toEqual([]);
    expect(error.reason.startsWith("[2J [31mall good rm -rf ~ xxx")).toBe(true);
    expect(error.reason.length).toBeLessThan(1100);
    await tools.close();
  });

  it("offline, latest is the highest cached version that is not yanked", async () => {
    await publishVersions("offline-yank", ["1.0.0", "1.1.0"]);
    const { tools, cacheDir } = await agent();
    await tools.add("offline-yank@1.0.0");
    presented.set("offline-yank@1.1.0", { status: "yanked", status_message: "broken" });
    await tools.add("offline-yank@1.1.0");
    await tools.close();
    const offline = new AgentTools({ toolsDbUrl: "http://127.0.0.1:9", cacheDir, sandbox: "off" });
    expect(await offline.add("offline-yank")).toMatchObject({ version: "1.0.0" });
    await offline.close();
  });
});

describe("minReleaseAgeHours", () => {
  it("resolves latest to the highest version at least that old, skipping yanked and undated ones", async () => {
    await publishVersions("aged-tool", ["1.0.0", "1.1.0", "1.2.0", "2.0.0"]);
    const ago = (hours: number) => new Date(Date.now() - hours * HOUR).toISOString();
    presented.set("aged-tool@1.0.0", { published_at: ago(100) });
    presented.set("aged-tool@1.1.0", { published_at: ago(50) });
    presented.set("aged-tool@1.2.0", { published_at: ago(30), status: "yanked", status_message: "bad" });
    presented.set("aged-tool@2.0.0", { published_at: ago(1) });
    const cases: Array<[number, string]> = [
      [0, "2.0.0"],
      [0.5, "2.0.0"],
      [24, "1.1.0"],
      [60, "1.0.0"],
    ];
    for (const [hours, expected] of cases) {
      const { tools } = await agent({ minReleaseAgeHours: hours });
      expect(await tools.add("aged-tool"), `${hours} h`).toMatchObject({ version: expected });
      await tools.close();
    }
    const { tools } = await agent({ minReleaseAgeHours: 24 });
    expect(await tools.add("aged-tool")).toMatchObject({ version: "1.1.0" });
    expect(await tools.executeToolById("aged-tool", {})).toBe("1.1.0");
    // An exact pin is the user's choice: the floor does not apply.
    expect(await tools.add("aged-tool@2.0.0")).toMatchObject({ version: "2.0.0" });
    await tools.close();
  });

  it("fails closed on missing, malformed or future publication times", async () => {
    await publishVersions("undated-tool", ["1.0.0", "1.1.0", "1.2.0"]);
    presented.set("undated-tool@1.0.0", { published_at: "last tuesday" });
    presented.set("undated-tool@1.1.0", { published_at: 1_600_000_000 });
    presented.set("undated-tool@1.2.0", { published_at: new Date(Date.now() + 1000 * HOUR).toISOString() });
    const { tools } = await agent({ minReleaseAgeHours: 1 });
    const error = await tools.add("undated-tool").catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TrustError);
    expect(error).toMatchObject({ code: "NO_RELEASE_OLD_ENOUGH", toolId: "undated-tool" });
    expect((error as Error).message).toBe(
      'No version of tool "undated-tool" was published at least 1 hours ago (minReleaseAgeHours): ' +
        "the newest, 1.2.0, was published in the future by the registry's clock. " +
        'Wait, pin a version with add("undated-tool@<version>"), or lower minReleaseAgeHours.',
    );
    await tools.close();
  });

  it("says when nothing is old enough, and when the registry lists nothing runnable", async () => {
    await publishVersions("fresh-tool", ["3.0.0"]);
    const { tools } = await agent({ minReleaseAgeHours: 48 });
    await expect(tools.add("fresh-tool")).rejects.toThrow(/the newest, 3\.0\.0, was published 0\.0 hours ago/);
    presented.set("fresh-tool@3.0.0", { status: "yanked", status_message: "x" });
    await expect(tools.add("fresh-tool")).rejects.toThrow(/the registry lists no version that is not yanked/);
    await tools.close();
  });

  it("refuses a malformed option at construction", () => {
    for (const value of [-1, Number.NaN, Number.POSITIVE_INFINITY, "24"]) {
      expect(() => new AgentTools({ minReleaseAgeHours: value as number }), String(value)).toThrow(TrustError);
    }
    expect(() => new AgentTools({ minReleaseAgeHours: -1 })).toThrow(
      "minReleaseAgeHours must be a number of hours, 0 or more (e.g. 24), but it is -1.",
    );
  });
});
