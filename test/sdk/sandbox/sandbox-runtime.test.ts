import { copyFile, cp, mkdir, writeFile } from "node:fs/promises";
import { readlinkSync } from "node:fs";
import { basename, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AgentTools, SandboxUnavailableError } from "@agent-tools/sdk";
import { BubblewrapPlatform } from "../../../sdk/src/sandbox/bubblewrap-platform.js";
import { sandboxSupport } from "../../../sdk/src/sandbox/sandbox-preflight.js";
import { compileIncrement, FIXTURE_TOOLS_DIR } from "../../support/bundles.js";
import { processesMatching } from "../support/process-state.js";
import { writeSandboxTool } from "../support/sandbox-tools.js";
import { TempDirs } from "../support/temp-dirs.js";

const temp = new TempDirs();
let dir: string;

beforeAll(async () => {
  dir = await temp.make();
});

afterAll(async () => {
  await temp.removeAll();
});

/**
 * Python workers of tools cached under `cacheDir`, found from outside by their state folder (the sandbox's
 * own processes are not Python).
 */
const workersUnder = (cacheDir: string) =>
  processesMatching(`AGENT_TOOLS_STATE_DIR=${cacheDir}/state/`, "environ").filter((pid) => {
    try {
      return basename(readlinkSync(`/proc/${pid}/exe`)).startsWith("python");
    } catch {
      return false;
    }
  });

describe("benign tools run sandboxed unchanged", () => {
  it("the text-stats and binary-increment fixtures", async () => {
    expect(sandboxSupport()).toMatchObject({ available: true, platform: "bubblewrap" });
    const tools = new AgentTools({ cacheDir: join(dir, "benign"), sandbox: "required" });
    try {
      await tools.add({ path: join(FIXTURE_TOOLS_DIR, "text-stats") }, { top_n: 2 });
      expect(await tools.executeToolById("text-stats", { text: "the cat and the hat and the bat" })).toEqual({
        word_count: 8,
        unique_words: 5,
        top_words: ["the", "and"],
      });
      const binaryDir = join(dir, "binary-increment");
      await mkdir(join(binaryDir, "code"), { recursive: true });
      await copyFile(join(FIXTURE_TOOLS_DIR, "binary-increment", "spec.json"), join(binaryDir, "spec.json"));
      await cp(await compileIncrement(), join(binaryDir, "code", "increment"));
      await tools.add({ path: binaryDir });
      expect(await tools.executeToolById("binary-increment", { value: 41 })).toEqual({ result: 42, status: "success" });
    } finally {
      await tools.close();
    }
  });
});

describe("workers cost what they must", () => {
  it("start on the first call, stop after the idle time, and start again on the next call", async () => {
    const cacheDir = join(dir, "lazy");
    const tools = new AgentTools({ cacheDir, sandbox: "required", workerIdleTimeoutMs: 300 });
    try {
      for (const name of ["lazy-a", "lazy-b", "lazy-c"]) await tools.add({ path: await writeSandboxTool(dir, name, `return '${name}'`) });
      expect(workersUnder(cacheDir)).toEqual([]);
      expect(await tools.executeToolById("lazy-a", {})).toBe("lazy-a");
      expect(workersUnder(cacheDir)).toHaveLength(1);
      await expect.poll(() => workersUnder(cacheDir).length, { timeout: 5_000 }).toBe(0);
      expect(await tools.executeToolById("lazy-a", {})).toBe("lazy-a");
    } finally {
      await tools.close();
    }
  });

  it("startWorkers starts several at once; a load error at the first call is a ToolLoadError", async () => {
    const cacheDir = join(dir, "eager");
    const tools = new AgentTools({ cacheDir, sandbox: "required", workerIdleTimeoutMs: 0 });
    try {
      for (const name of ["eager-a", "eager-b"]) await tools.add({ path: await writeSandboxTool(dir, name, `return '${name}'`) });
      await tools.startWorkers(["eager-a", "eager-b"]);
      expect(workersUnder(cacheDir)).toHaveLength(2);
      await tools.add({ path: await writeSandboxTool(dir, "broken", "return 1") });
      const broken = join(dir, "broken", "code", "function.py");
      await writeFile(broken, "raise RuntimeError('cannot import')\n");
      await expect(tools.executeToolById("broken", {})).rejects.toMatchObject({ code: "TOOL_LOAD_FAILED" });
    } finally {
      await tools.close();
    }
    await expect.poll(() => workersUnder(cacheDir).length, { timeout: 3_000 }).toBe(0);
  });
});

describe("sandbox modes where bubblewrap is missing", () => {
  const missing = () => new BubblewrapPlatform(join(dir, "no-such-bwrap"));

  it("auto warns once, with the reason and the fix, and runs the tool unsandboxed", async () => {
    const warnings: string[] = [];
    const tools = new AgentTools({
      cacheDir: join(dir, "auto"),
      sandboxPlatform: missing(),
      onSandboxWarning: (message) => warnings.push(message),
    });
    try {
      await tools.add({
        path: await writeSandboxTool(
          dir,
          "reads-home",
          "import os\nreturn [os.path.exists('/etc/shadow'), os.environ.get('AGENT_TOOLS_SANDBOX')]",
        ),
      });
      await tools.add({ path: await writeSandboxTool(dir, "second", "return 2") });
      expect(await tools.executeToolById("reads-home", {})).toEqual([true, null]);
      expect(await tools.executeToolById("second", {})).toBe(2);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(/run WITHOUT a sandbox: bubblewrap \(bwrap\) is not installed.*apt-get install bubblewrap/);
    } finally {
      await tools.close();
    }
  });

  it("required refuses, saying why and how to fix it; off runs without a warning", () => {
    expect(() => new AgentTools({ cacheDir: join(dir, "required"), sandbox: "required", sandboxPlatform: missing() })).toThrow(
      SandboxUnavailableError,
    );
    expect(() => new AgentTools({ cacheDir: join(dir, "required"), sandbox: "required", sandboxPlatform: missing() })).toThrow(
      /require a sandbox.*not installed.*To fix: install it/,
    );
    const warnings: string[] = [];
    const off = new AgentTools({
      cacheDir: join(dir, "off"),
      sandbox: "off",
      sandboxPlatform: missing(),
      onSandboxWarning: (message) => warnings.push(message),
    });
    expect(warnings).toEqual([]);
    expect(() => new AgentTools({ sandbox: "maybe" as never })).toThrow(/sandbox must be one of "auto", "required", "off"/);
    void off.close();
  });
});
