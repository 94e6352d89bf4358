import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  AgentTools,
  ToolCrashedError,
  ToolEnvironmentError,
  ToolExecutionError,
  ToolInputError,
  ToolLoadError,
  ToolOutputError,
  ToolTimeoutError,
} from "@agent-tools/sdk";
import { buildPythonToolZip, FIXTURE_TOOLS_DIR } from "../../support/bundles.js";
import { toolWithExecute, writePythonTool } from "../support/python-tool-folder.js";
import { TempDirs } from "../support/temp-dirs.js";

const temp = new TempDirs();
let dir: string;
let tools: AgentTools;
const printed: string[] = [];

beforeAll(async () => {
  dir = await temp.make();
  tools = new AgentTools({
    cacheDir: join(dir, "cache"),
    callTimeoutMs: 15_000,
    workerStart: "on-add", // load errors surface at add (the lazy default is covered in sandbox tests)
    onToolOutput: (toolId, stream, text) => printed.push(`${toolId}:${stream}:${text}`),
  });
});

afterAll(async () => {
  await tools.close();
  await temp.removeAll();
});

/** Adds a local tool folder whose `execute` runs `body`. */
async function addTool(name: string, body: string, constructorBody?: string) {
  return tools.add({ path: await writePythonTool(dir, name, toolWithExecute(body, constructorBody)) });
}

describe("local sources (the test-it-locally flow of docs/authoring.md)", () => {
  it("runs the text-stats fixture from its tool folder, with spec.json's id and parameters", async () => {
    const added = await tools.add({ path: join(FIXTURE_TOOLS_DIR, "text-stats") }, { top_n: 2 });
    expect(added).toMatchObject({ toolId: "text-stats", source: "local", runtime: "python", version: "1.0.0" });
    expect(await tools.executeToolById("text-stats", { text: "the cat and the hat and the bat" })).toEqual({
      word_count: 8,
      unique_words: 5,
      top_words: ["the", "and"],
    });
  });

  it("accepts the code/ folder itself (seed compatibility, B13) and a tool.zip path", async () => {
    const codeOnly = await writePythonTool(dir, "code-only", toolWithExecute("return 'from code/'"));
    expect(await tools.add({ path: join(codeOnly, "code"), toolId: "code-only" })).toMatchObject({ toolId: "code-only" });
    expect(await tools.executeToolById("code-only", {})).toBe("from code/");

    const zipDir = join(dir, "zipped");
    await writePythonTool(dir, "zipped", toolWithExecute("return {'zipped': True}"));
    await writeFile(join(zipDir, "tool.zip"), buildPythonToolZip(zipDir));
    expect(await tools.add({ path: join(zipDir, "tool.zip") })).toMatchObject({ toolId: "zipped" });
    expect(await tools.executeToolById("zipped", {})).toEqual({ zipped: true });
  });

  it("makes code/ importable and gives every tool its own module name (docs/design/compatibility.md#module-names)", async () => {
    for (const name of ["first", "second"]) {
      const source =
        `from helper import NAME\nimport sys\nclass AgentSpaceV1Tool:\n    def __init__(self, ` +
        `tool_id, tool_data): pass\n    def execute(self, input_data):\n        return ` +
        `{"helper": NAME, "module": __name__, "function_loaded": "function" in sys.modules}\n`;
      await tools.add({ path: await writePythonTool(dir, name, source, { "helper.py": `NAME = "${name}"\n` }) });
    }
    const first = (await tools.executeToolById("first", {})) as Record<string, unknown>;
    const second = (await tools.executeToolById("second", {})) as Record<string, unknown>;
    expect(first.helper).toBe("first");
    expect(second.helper).toBe("second");
    expect(first.module).toMatch(/^agent_tool_first_[0-9a-f]{8}$/);
    expect(first.module).not.toBe(second.module);
    expect(first.function_loaded).toBe(false);
  });

  it("picks up edits of a local folder when it is added again", async () => {
    const path = await writePythonTool(dir, "edited", toolWithExecute("return 'before'"));
    await tools.add({ path });
    expect(await tools.executeToolById("edited", {})).toBe("before");
    await writeFile(join(path, "code", "function.py"), toolWithExecute("return 'after'"));
    await tools.add({ path });
    expect(await tools.executeToolById("edited", {})).toBe("after");
  });

  it("gives the constructor the full record with merged parameters", async () => {
    await addTool(
      "record",
      "return self.data",
      "self.data = {'id': tool_id, 'params': tool_data['tool_parameters'], 'runtime': tool_data['tool_runtime_type']}",
    );
    await tools.add({ path: join(dir, "record") }, { answer: 42 });
    expect(await tools.executeToolById("record", {})).toEqual({ id: "record", params: { answer: 42 }, runtime: "python" });
  });
});

describe("Python tool failures are typed, name the tool, and leave the SDK usable", () => {
  it("a tool exception carries Python's type, message and traceback; the worker keeps serving", async () => {
    await addTool("raises", "if input_data.get('fail'):\n    raise ValueError('bad value: ' + str(input_data['fail']))\nreturn 'fine'");
    const error = await tools.executeToolById("raises", { fail: 7 }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ToolExecutionError);
    expect(error).toMatchObject({ code: "TOOL_EXECUTION_FAILED", toolId: "raises" });
    expect((error as Error).message).toBe('Tool "raises" failed: ValueError: bad value: 7');
    expect((error as ToolExecutionError).python?.traceback).toContain("in execute");
    expect(await tools.executeToolById("raises", {})).toBe("fine");
  });

  it("a missing AgentSpaceV1Tool and a raising constructor fail at add with ToolLoadError", async () => {
    const missing = await writePythonTool(dir, "no-class", "class SomethingElse:\n    pass\n");
    await expect(tools.add({ path: missing })).rejects.toThrow(
      /Tool "no-class" could not be loaded: LoadError: code\/function.py defines no class named AgentSpaceV1Tool/,
    );
    const raising = await addTool("bad-init", "return 1", "raise RuntimeError('no config')").catch((caught: unknown) => caught);
    expect(raising).toBeInstanceOf(ToolLoadError);
    expect((raising as ToolLoadError).python).toMatchObject({ type: "RuntimeError", message: "no config" });
    expect(tools.getTool("bad-init")).toBeUndefined();
    const syntax = await writePythonTool(dir, "syntax", "def broken(:\n");
    await expect(tools.add({ path: syntax })).rejects.toThrow(/SyntaxError/);
  });

  it("input that JSON cannot carry fails before anything is sent", async () => {
    await addTool("echo", "return input_data");
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    await expect(tools.executeToolById("echo", { big: 10n })).rejects.toBeInstanceOf(ToolInputError);
    await expect(tools.executeToolById("echo", cyclic)).rejects.toThrow(/Input for tool "echo" is not JSON-serialisable: .*circular/);
    expect(await tools.executeToolById("echo", { ok: ["é", 1.5, null] })).toEqual({ ok: ["é", 1.5, null] });
  });

  it("output that is not JSON-serialisable is a ToolOutputError", async () => {
    await addTool("returns-set", "return {1, 2} if input_data.get('kind') == 'set' else float('nan')");
    const error = await tools.executeToolById("returns-set", { kind: "set" }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ToolOutputError);
    expect((error as Error).message).toMatch(/not JSON-serialisable: Object of type set/);
    await expect(tools.executeToolById("returns-set", {})).rejects.toThrow(/Out of range float values/);
  });

  it("a hanging call times out, the worker is killed and restarted on the next call", async () => {
    const quick = new AgentTools({ cacheDir: join(dir, "cache"), callTimeoutMs: 1_000 });
    try {
      const path = await writePythonTool(
        dir,
        "hangs",
        toolWithExecute("import time\nif input_data.get('hang'):\n    time.sleep(60)\nreturn 'awake'"),
      );
      await quick.add({ path });
      const error = await quick.executeToolById("hangs", { hang: true }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ToolTimeoutError);
      expect(error).toMatchObject({ code: "TOOL_TIMEOUT", toolId: "hangs", timeoutMs: 1_000 });
      expect(await quick.executeToolById("hangs", {})).toBe("awake");
    } finally {
      await quick.close();
    }
  });

  it("prints go to the output listener, never into results, even megabytes of them", async () => {
    await addTool(
      "chatty",
      "print('x' * (8 * 1024 * 1024))\nprint('hello from the tool')\nimport " +
        "sys\nprint('to stderr', file=sys.stderr)\nreturn {'done': True}",
    );
    expect(await tools.executeToolById("chatty", {})).toEqual({ done: true });
    expect(await tools.executeToolById("chatty", {})).toEqual({ done: true });
    const out = printed.filter((line) => line.startsWith("chatty:stdout:")).join("");
    expect(out.length).toBeGreaterThan(16 * 1024 * 1024);
    expect(out).toContain("hello from the tool");
    expect(printed.some((line) => line.startsWith("chatty:stderr:to stderr"))).toBe(true);
  });

  it("a tool that kills its interpreter fails that call with ToolCrashedError; the next call gets a new worker", async () => {
    // A token per worker process (its pid is the same in every fresh pid namespace).
    await addTool(
      "exits",
      "import os, sys, time\nif input_data.get('die'):\n    print('last words', file=sys.stderr, " +
        "flush=True)\n    os._exit(3)\nreturn os.environ.setdefault('WORKER_TOKEN', repr(time.time()))",
    );
    const pid = await tools.executeToolById("exits", {});
    const error = await tools.executeToolById("exits", { die: true }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ToolCrashedError);
    expect(error).toMatchObject({ code: "TOOL_CRASHED", toolId: "exits", exitCode: 3 });
    expect((error as Error).message).toMatch(/Tool "exits" crashed its process \(exit code 3\).*last words/);
    const after = await tools.executeToolById("exits", {});
    expect(typeof after).toBe("string");
    expect(after).not.toBe(pid);
  });

  it("a segfault is a crash too, and sys.exit() only fails the call", async () => {
    await addTool(
      "segv",
      "import ctypes, sys\nif input_data.get('exit'):\n    sys.exit(5)\nif " +
        "input_data.get('segv'):\n    ctypes.string_at(0)\nreturn 'alive'",
    );
    await expect(tools.executeToolById("segv", { segv: true })).rejects.toMatchObject({ code: "TOOL_CRASHED", signal: "SIGSEGV" });
    await expect(tools.executeToolById("segv", { exit: true })).rejects.toThrow(/SystemExit: 5/);
    expect(await tools.executeToolById("segv", {})).toBe("alive");
  });

  it("a missing interpreter is a ToolEnvironmentError naming the tool and the fix", async () => {
    const noPython = new AgentTools({ cacheDir: join(dir, "cache"), pythonPath: join(dir, "no-such-python3") });
    const error = await noPython.add({ path: join(FIXTURE_TOOLS_DIR, "text-stats") }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ToolEnvironmentError);
    expect(error).toMatchObject({ toolId: "text-stats" });
    expect((error as Error).message).toMatch(
      /cannot start Python interpreter .*no-such-python3.*pass the interpreter as the pythonPath option/,
    );
    await noPython.close();
  });

  it(
    "executeCommand returns the tool's value " + "(docs/design/compatibility.md#management-commands) and reports a missing execute_command",
    async () => {
      await addTool("no-commands", "return 1");
      await expect(tools.executeCommand("no-commands", "reset", {})).rejects.toThrow(
        /NotImplementedError: this tool defines no execute_command method/,
      );
      await tools.add({ path: join(FIXTURE_TOOLS_DIR, "text-stats") });
      expect(await tools.executeCommand("text-stats", "set_top_n", { top_n: 1 })).toEqual({ top_n: 1 });
      await expect(tools.executeCommand("text-stats", "unknown", {})).rejects.toThrow(/NotImplementedError: Unknown command: unknown/);
    },
  );

  it("never writes __pycache__ into a cached tree and cleans nothing it does not own", async () => {
    const trees = join(dir, "cache", "trees");
    for (const tree of await readdir(trees)) {
      expect(await readdir(join(trees, tree, "code"))).not.toContain("__pycache__");
    }
    expect(await readFile(join(FIXTURE_TOOLS_DIR, "text-stats", "code", "function.py"), "utf8")).toContain("AgentSpaceV1Tool");
  });
});
