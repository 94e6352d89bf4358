import { chmod, mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AgentTools, ToolCrashedError, ToolExecutionError, ToolInputError, ToolOutputError, ToolTimeoutError } from "@agent-tools/sdk";
import { compileIncrement, FIXTURE_TOOLS_DIR, zipFiles } from "../../support/bundles.js";
import { processesMatching } from "../support/process-state.js";
import { TempDirs } from "../support/temp-dirs.js";

const temp = new TempDirs();
let dir: string;
let tools: AgentTools;

/** A local binary tool whose only file is a shell script (a binary tool may be "any executable script": docs/authoring.md). */
async function addScriptTool(name: string, script: string, options: { mode?: number } = {}) {
  const codeDir = join(dir, name, "code");
  await mkdir(codeDir, { recursive: true });
  await writeFile(join(codeDir, "run"), `#!/bin/sh\n${script}\n`);
  await chmod(join(codeDir, "run"), options.mode ?? 0o755);
  await writeFile(join(dir, name, "spec.json"), JSON.stringify({ tool_id: name, tool_runtime_type: "binary", tool_parameters: { p: 1 } }));
  return tools.add({ path: join(dir, name) });
}

async function agentToolsOutputDirs(): Promise<string[]> {
  return (await readdir(tmpdir())).filter((name) => name.startsWith("agent-tools-binary-"));
}

beforeAll(async () => {
  dir = await temp.make();
  tools = new AgentTools({ cacheDir: join(dir, "cache"), callTimeoutMs: 5_000 });
});

afterAll(async () => {
  await tools.close();
  await temp.removeAll();
});

describe("binary tools", () => {
  it("keep the executable bit from a zip made with unix modes and follow the binary tool contract", async () => {
    const binary = await readFile(await compileIncrement());
    const zipPath = join(dir, "increment-zip", "tool.zip");
    await mkdir(join(dir, "increment-zip"), { recursive: true });
    await writeFile(zipPath, zipFiles({ "code/": { type: "directory" }, "code/increment": { data: binary, mode: 0o755 } }));
    await writeFile(join(dir, "increment-zip", "spec.json"), await readFile(join(FIXTURE_TOOLS_DIR, "binary-increment", "spec.json")));
    const added = await tools.add({ path: zipPath }, { step: 2 });
    expect(added).toMatchObject({ toolId: "binary-increment", runtime: "binary" });
    expect(await tools.executeToolById("binary-increment", { value: 41 })).toEqual({ result: 43, status: "success" });
  });

  it("receive the request JSON, a fresh output file per call, and run in the tool folder", async () => {
    await addScriptTool("echo-request", 'printf \'{"request": %s, "cwd": "%s", "out": "%s"}\' "$1" "$(pwd)" "$2" > "$2"');
    const first = (await tools.executeToolById("echo-request", { value: 1 })) as Record<string, any>;
    const second = (await tools.executeToolById("echo-request", { value: 2 })) as Record<string, any>;
    expect(first.request).toEqual({
      tool_id: "echo-request",
      tool_data: expect.objectContaining({ tool_parameters: { p: 1 } }),
      mode: "input",
      input: { value: 1 },
    });
    expect(first.cwd).toBe(join(dir, "echo-request"));
    expect(first.out).not.toBe(second.out);
    await expect(readFile(first.out)).rejects.toThrow(/ENOENT/); // removed after the call
  });

  it("a non-zero exit is a ToolExecutionError carrying the exit code and stderr", async () => {
    await addScriptTool("fails", 'echo "missing or invalid value" >&2\nexit 4');
    const error = await tools.executeToolById("fails", {}).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ToolExecutionError);
    expect(error).toMatchObject({ toolId: "fails", exitCode: 4 });
    expect((error as Error).message).toBe('Tool "fails" failed: the binary exited with code 4: missing or invalid value');
  });

  it("a missing or invalid output file is a ToolOutputError, never an earlier call's result", async () => {
    await addScriptTool("output-check", 'case "$1" in *emit*) echo \'{"n": 1}\' > "$2";; *garbage*) echo "not json" > "$2";; esac');
    expect(await tools.executeToolById("output-check", { emit: true })).toEqual({ n: 1 });
    await expect(tools.executeToolById("output-check", {})).rejects.toThrow(/exited 0 without writing its output file/);
    const invalid = await tools.executeToolById("output-check", { garbage: true }).catch((caught: unknown) => caught);
    expect(invalid).toBeInstanceOf(ToolOutputError);
    expect((invalid as Error).message).toMatch(/output file is not valid JSON .*not json/);
  });

  it("a timeout kills the binary and everything it started", async () => {
    const quick = new AgentTools({ cacheDir: join(dir, "cache"), callTimeoutMs: 1_500 });
    try {
      // Found by its command line: inside a sandbox its pid belongs to another pid namespace.
      const marker = String(300_000 + (process.pid % 10_000));
      const codeDir = join(dir, "sleeper", "code");
      await mkdir(codeDir, { recursive: true });
      await writeFile(join(codeDir, "run"), `#!/bin/sh\nsleep ${marker} &\nwait\n`, { mode: 0o755 });
      await quick.add({ path: join(dir, "sleeper") });
      const running = quick.executeToolById("sleeper", {}).catch((caught: unknown) => caught);
      await expect.poll(() => processesMatching(`sleep\0${marker}`, "cmdline").length, { timeout: 3_000 }).toBe(1);
      expect(await running).toBeInstanceOf(ToolTimeoutError);
      await expect.poll(() => processesMatching(`sleep\0${marker}`, "cmdline").length, { timeout: 3_000 }).toBe(0);
    } finally {
      await quick.close();
    }
  });

  it("a signal is a ToolCrashedError; an unexecutable file is named with a fix", async () => {
    await addScriptTool("self-kill", "kill -SEGV $$");
    await expect(tools.executeToolById("self-kill", {})).rejects.toMatchObject({ code: "TOOL_CRASHED", signal: "SIGSEGV" });
    expect(ToolCrashedError).toBeDefined();
    await addScriptTool("not-executable", "exit 0", { mode: 0o644 });
    await expect(tools.executeToolById("not-executable", {})).rejects.toThrow(/Tool "not-executable": cannot run .*EACCES.*chmod \+x/);
  });

  it(
    "a request longer than one command-line argument may be is a " + "ToolInputError, sandboxed or not; outputFileLimitBytes is checked",
    async () => {
      for (const sandbox of ["off", "required"] as const) {
        const own = new AgentTools({ cacheDir: join(dir, `long-${sandbox}`), sandbox });
        try {
          await own.add({ path: join(dir, "echo-request") });
          const error = await own.executeToolById("echo-request", { text: "x".repeat(200 * 1024) }).catch((caught: unknown) => caught);
          expect(error, sandbox).toBeInstanceOf(ToolInputError);
          expect((error as Error).message, sandbox).toMatch(
            /the request is \d+ bytes, more than one command-line argument may hold \(128 KiB on Linux\)/,
          );
          expect(await own.executeToolById("echo-request", { text: "short" }), sandbox).toMatchObject({
            request: { input: { text: "short" } },
          });
        } finally {
          await own.close();
        }
      }
      expect(() => new AgentTools({ outputFileLimitBytes: 0 })).toThrow(/outputFileLimitBytes must be a positive integer \(bytes\), got 0/);
    },
  );

  it("answer executeCommand as the binary tool contract says and remove their output folder on close", async () => {
    const own = new AgentTools({ cacheDir: join(dir, "cache") });
    const before = await agentToolsOutputDirs();
    await own.add({ path: join(dir, "echo-request") });
    await own.executeToolById("echo-request", {});
    expect((await agentToolsOutputDirs()).length).toBe(before.length + 1);
    expect(await own.executeCommand("echo-request", "reset", {})).toEqual({
      success: false,
      message: "management commands not available for binaries",
    });
    await own.close();
    expect(await agentToolsOutputDirs()).toEqual(before);
  });
});
