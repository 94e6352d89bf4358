/**
 * Capability paths are normalised and resolved like every other path (docs/sandbox.md#capability-paths):
 * textually at upload (`toolCapabilityProblems`, the registry's 422), and on the host's real path
 * when the SDK grants them, in the real sandbox, as the agent's own user (root in CI) and as an
 * unprivileged user.
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readToolCapabilities, toolCapabilityProblems } from "@agent-tools/sdk/capabilities";
import { buildBundle, buildPythonToolZip, FIXTURE_TOOLS_DIR, readFixtureSpec } from "../../support/bundles.js";
import { startTestRegistry, uploadBundle, type TestRegistry } from "../../support/registry.js";
import { TempDirs } from "../support/temp-dirs.js";
import { runScenarioAs } from "./support/run-scenario.js";

const SCENARIO = fileURLToPath(new URL("./support/capability-paths-scenario.ts", import.meta.url));
const UNPRIVILEGED = 65534;
const temp = new TempDirs();

afterAll(() => temp.removeAll());

const grant = (path: string, access = "read") => ({ filesystem: [{ path, access }] });

/** Spellings of places no tool is granted, each with the reason the problem must give. */
const REFUSED: [string, RegExp][] = [
  ["/", /is the whole filesystem/],
  ["//", /is the whole filesystem/],
  ["/./", /is the whole filesystem/],
  ["/.//./", /is the whole filesystem/],
  ["/tmp/../", /must not contain "\.\."/],
  ["/proc", /\/proc, \/sys, \/dev/],
  ["//proc//self/", /\/proc, \/sys, \/dev/],
  ["/sys/kernel", /\/proc, \/sys, \/dev/],
  ["/dev/shm", /\/proc, \/sys, \/dev/],
  ["/dev/./shm/", /\/proc, \/sys, \/dev/],
  ["/home", /holds every user's home folder/],
  ["/home/alice/", /is a user's home folder/],
  ["/root", /is a user's home folder/],
  ["/Users/bob", /is a user's home folder/],
  ["/data\u0000/x", /holds a control character/],
];

describe("capability paths, as text (at upload and when the SDK reads a manifest)", () => {
  it("refuse the root, /proc, /sys, /dev and homes however they are spelled", () => {
    for (const [path, reason] of REFUSED) {
      const problems = toolCapabilityProblems(grant(path));
      expect(problems, path).toHaveLength(1);
      expect(problems[0], path).toMatch(reason);
      expect(problems[0], path).toContain(`tool_capabilities.filesystem[0] path ${JSON.stringify(path)}`);
    }
  });

  it("take one spelling of the others: repeated slashes, dot segments and a trailing slash go", () => {
    expect(readToolCapabilities({ filesystem: [{ path: "//data/./sets//", access: "read" }] }).filesystem).toEqual([
      { path: "/data/sets", access: "read" },
    ]);
    for (const path of ["/home/alice/data", "/devices", "/process", "/srv/homework", "workspace"])
      expect(toolCapabilityProblems(grant(path)), path).toEqual([]);
  });

  describe("at the registry", () => {
    let registry: TestRegistry;
    beforeAll(async () => {
      registry = await startTestRegistry();
    });
    afterAll(() => registry?.close());

    it("an upload naming such a path is 422, and a spelling of an ordinary one is stored canonical", async () => {
      const spec = readFixtureSpec("text-stats");
      const toolZip = buildPythonToolZip(join(FIXTURE_TOOLS_DIR, "text-stats"));
      const upload = (capabilities: Record<string, unknown>) =>
        uploadBundle(
          registry.url,
          registry.token,
          buildBundle({ spec: { ...spec, tool_capabilities: capabilities }, toolZip, toolMd: "# x\n" }),
        );
      for (const path of ["//", "/./", "/dev/shm", "/tmp/../"]) {
        const answer = await upload(grant(path));
        expect(answer.status, path).toBe(422);
        expect(String(answer.body.detail), path).toContain(`tool_capabilities.filesystem[0] path ${JSON.stringify(path)}`);
      }
      expect((await upload(grant("/srv//data/"))).status).toBe(200);
      const entry = (await (await fetch(`${registry.url}/tools/text-stats`)).json()) as { tool_capabilities: unknown };
      expect(entry.tool_capabilities).toEqual({ network: [], env: [], filesystem: [{ path: "/srv/data", access: "read" }] });
    });
  });
});

interface ScenarioResult {
  results: Record<string, { read: Record<string, string> } | { code: string; message: string }>;
  realData: string;
}

/** Runs the grant scenario as `uid` (undefined: as this process's own user). */
async function scenario(uid: number | undefined): Promise<{ folder: string; result: ScenarioResult }> {
  const folder = await temp.make("capability-paths-");
  return { folder, result: await runScenarioAs<ScenarioResult>(uid, SCENARIO, folder) };
}

function expectGrantsJudgedOnRealPaths({ folder, result }: { folder: string; result: ScenarioResult }): void {
  const refusal = (toolId: string) => {
    const outcome = result.results[toolId]!;
    expect("code" in outcome, `${toolId}: ${JSON.stringify(outcome)}`).toBe(true);
    expect((outcome as { code: string }).code).toBe("CAPABILITY_PATH_REFUSED");
    return (outcome as { message: string }).message;
  };
  expect(refusal("grants-root")).toBe(
    `Tool "grants-root" may not be granted filesystem:${join(folder, "planted-root")}:read: ${join(folder, "planted-root")} ` +
      `(it resolves to /) is the whole filesystem. No tool is granted it. Grant the folder the tool needs, below it.`,
  );
  expect(refusal("grants-shm")).toContain("(it resolves to /dev/shm) is the kernel's view of processes, devices or shared memory");
  expect(refusal("grants-home")).toMatch(/\(it resolves to [^)]+\) is (the agent's home folder|a user's home folder)/);
  expect(refusal("grants-cache")).toContain("the SDK's cache (archives, trees, pins, state). No tool is granted it. Grant another folder.");
  // The link is bound at its real path, the secret in it is masked (a device node nobody may open), and the
  // link itself leads nowhere inside.
  const data = result.results["grants-data"] as { read: Record<string, string> };
  expect(data.read).toEqual({
    [join(result.realData, "notes.txt")]: "visible",
    [join(result.realData, ".env")]: "PermissionError",
    [join(folder, "data-link", "notes.txt")]: "FileNotFoundError",
  });
}

describe("capability paths, granted on the host's real path", () => {
  it("as the agent's own user (root in CI)", async () => {
    expectGrantsJudgedOnRealPaths(await scenario(undefined));
  }, 60_000);

  it("as an unprivileged user", async () => {
    expectGrantsJudgedOnRealPaths(await scenario(process.getuid?.() === 0 ? UNPRIVILEGED : undefined));
  }, 60_000);
});
