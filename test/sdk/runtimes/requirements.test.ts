import { execFile } from "node:child_process";
import { mkdir, readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AgentTools, ToolEnvironmentError } from "@agent-tools/sdk";
import { writePythonTool } from "../support/python-tool-folder.js";
import { startPackageIndex } from "../support/package-index.js";
import { TempDirs } from "../support/temp-dirs.js";
import { writeTinyWheel } from "../support/tiny-wheel.js";

const temp = new TempDirs();
let dir: string;
let tools: AgentTools;

const REPORTING_TOOL = [
  "import sys",
  "import tinydep_for_agent_tools as dep",
  "class AgentSpaceV1Tool:",
  "    def __init__(self, tool_id, tool_data): pass",
  "    def execute(self, input_data):",
  "        return {'value': dep.VALUE, 'prefix': sys.prefix, 'dep_file': dep.__file__}",
  "",
].join("\n");

beforeAll(async () => {
  dir = await temp.make();
  const wheels = join(dir, "wheels");
  await writeTinyWheel(wheels, "tinydep_for_agent_tools", "1.0", 'VALUE = "installed offline from a wheel"\n');
  tools = new AgentTools({
    cacheDir: join(dir, "cache"),
    // Offline and isolated from this machine's pip configuration (mirrors, constraints).
    pipArgs: ["--no-index", "--find-links", wheels],
    pipEnv: { PIP_CONFIG_FILE: "/dev/null" },
  });
});

afterAll(async () => {
  await tools.close();
  await temp.removeAll();
});

describe("requirements.txt", () => {
  it("installs into a venv in the cache (never the agent's Python), shared by tools with the same requirements", async () => {
    for (const name of ["needs-dep", "needs-dep-too"]) {
      await tools.add({
        path: await writePythonTool(dir, name, REPORTING_TOOL, { "requirements.txt": "# pinned\ntinydep_for_agent_tools==1.0\n" }),
      });
    }
    const first = (await tools.executeToolById("needs-dep", {})) as { value: string; prefix: string; dep_file: string };
    const second = (await tools.executeToolById("needs-dep-too", {})) as { prefix: string };
    expect(first.value).toBe("installed offline from a wheel");
    expect(first.prefix.startsWith(join(dir, "cache", "venvs"))).toBe(true);
    expect(first.dep_file.startsWith(first.prefix)).toBe(true);
    expect(second.prefix).toBe(first.prefix);
    expect(await readdir(join(dir, "cache", "venvs"))).toHaveLength(1);
    const host = await promisify(execFile)("python3", [
      "-c",
      "import importlib.util; print(importlib.util.find_spec('tinydep_for_agent_tools'))",
    ]);
    expect(host.stdout.trim()).toBe("None");
  });

  it("an empty or comment-only requirements.txt needs no venv", async () => {
    const source =
      "import sys\nclass AgentSpaceV1Tool:\n    def __init__(self, tool_id, " +
      "tool_data): pass\n    def execute(self, input_data):\n        return sys.prefix\n";
    await tools.add({ path: await writePythonTool(dir, "no-deps", source, { "requirements.txt": "\n# nothing\n" }) });
    expect(await tools.executeToolById("no-deps", {})).not.toContain(join(dir, "cache"));
  });

  it(
    "a requirement pip cannot install is a ToolEnvironmentError with pip's " +
      "reason at the first call (at add with on-add); nothing half-built stays",
    async () => {
      const path = await writePythonTool(dir, "missing-dep", REPORTING_TOOL, {
        "requirements.txt": "no-such-package-for-agent-tools==9.9\n",
      });
      await tools.add({ path }); // nothing is installed before the tool is first used
      const error = await tools.executeToolById("missing-dep", {}).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ToolEnvironmentError);
      expect(error).toMatchObject({ code: "TOOL_ENVIRONMENT_FAILED", toolId: "missing-dep" });
      expect((error as Error).message).toMatch(
        /installing code\/requirements.txt failed .*No matching distribution found for no-such-package-for-agent-tools/s,
      );
      expect((error as Error).message).toContain("pass what you need as pipArgs or pipEnv");
      expect(await readdir(join(dir, "cache", "venvs"))).toHaveLength(1);
      expect(((await tools.executeToolById("needs-dep", {})) as Record<string, string>).value).toBe("installed offline from a wheel");

      const eager = new AgentTools({ cacheDir: join(dir, "cache"), pipArgs: ["--no-index"], workerStart: "on-add" });
      await expect(eager.add({ path })).rejects.toThrow(/No matching distribution found for no-such-package-for-agent-tools/);
      await eager.close();
      expect(await readdir(join(dir, "cache", "venvs"))).toHaveLength(1);
    },
  );

  it("a wheel from a package index is fetched through the sandbox's proxy; the tool imports it and runs its console script", async () => {
    const initPy = "VALUE = 'from the index'\ndef main():\n    print('script ran')\n";
    const wheel = await writeTinyWheel(join(dir, "index-wheels"), "indexdep", "2.1", initPy, { "index-script": "indexdep:main" });
    const index = await startPackageIndex([wheel]);
    // The script's shebang must name the venv's final folder, not the temp one pip installed it in.
    const runScript = "__import__('subprocess').run([sys.prefix + '/bin/index-script'], capture_output=True, text=True).stdout";
    const source = REPORTING_TOOL.replaceAll("tinydep_for_agent_tools", "indexdep").replace(
      "'dep_file': dep.__file__",
      `'dep_file': dep.__file__, 'script': ${runScript}`,
    );
    const agent = new AgentTools({ cacheDir: join(dir, "index-cache"), sandbox: "required", pipArgs: ["--index-url", index.url] });
    try {
      await agent.add({ path: await writePythonTool(dir, "index-dep", source, { "requirements.txt": "indexdep==2.1\n" }) });
      expect(index.requests).toEqual([]);
      expect(await agent.executeToolById("index-dep", {})).toMatchObject({ value: "from the index", script: "script ran\n" });
      expect(index.requests).toEqual(["/simple/indexdep/", "/files/indexdep-2.1-py3-none-any.whl"]);
    } finally {
      await agent.close();
      await index.close();
    }
  });

  it("pip reads none of the machine's or the agent's configuration, only pipArgs and pipEnv", async () => {
    const wheels = join(dir, "config-wheels");
    await writeTinyWheel(wheels, "configdep", "1.0", "VALUE = 'found through configuration'\n");
    const home = join(dir, "config-home");
    await mkdir(join(home, ".config", "pip"), { recursive: true });
    await writeFile(join(home, ".config", "pip", "pip.conf"), `[global]\nfind-links = ${wheels}\n`);
    const source = REPORTING_TOOL.replaceAll("tinydep_for_agent_tools", "configdep");
    const saved = { HOME: process.env.HOME, PIP_FIND_LINKS: process.env.PIP_FIND_LINKS };
    Object.assign(process.env, { HOME: home, PIP_FIND_LINKS: wheels });
    try {
      for (const sandbox of ["required", "off"] as const) {
        const ignoring = new AgentTools({ cacheDir: join(dir, `config-${sandbox}`), sandbox, pipArgs: ["--no-index"] });
        await ignoring.add({ path: await writePythonTool(dir, `config-${sandbox}`, source, { "requirements.txt": "configdep\n" }) });
        await expect(ignoring.executeToolById(`config-${sandbox}`, {})).rejects.toThrow(/No matching distribution found for configdep/);
        await ignoring.close();
      }
      const explicit = new AgentTools({
        cacheDir: join(dir, "config-explicit"),
        sandbox: "required",
        pipEnv: { PIP_NO_INDEX: "1", PIP_FIND_LINKS: wheels },
      });
      await explicit.add({ path: await writePythonTool(dir, "config-explicit", source, { "requirements.txt": "configdep\n" }) });
      expect(((await explicit.executeToolById("config-explicit", {})) as Record<string, string>).value).toBe("found through configuration");
      await explicit.close();
    } finally {
      for (const [name, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  });

  it("requirements naming the tool's own files get a venv per tool folder; plain ones share one", async () => {
    const shared = new AgentTools({ cacheDir: join(dir, "own-files-cache"), sandbox: "required", pipArgs: ["--no-index"] });
    const values: string[] = [];
    for (const [name, value] of [
      ["own-files-a", "shipped by a"],
      ["own-files-b", "shipped by b"],
    ]) {
      const path = await writePythonTool(dir, name!, REPORTING_TOOL, {
        "requirements.txt": "--find-links ./wheels\ntinydep_for_agent_tools==1.0\n",
      });
      await writeTinyWheel(join(path, "code", "wheels"), "tinydep_for_agent_tools", "1.0", `VALUE = ${JSON.stringify(value)}\n`);
      await shared.add({ path });
      values.push(((await shared.executeToolById(name!, {})) as Record<string, string>).value!);
    }
    await shared.close();
    expect(values).toEqual(["shipped by a", "shipped by b"]);
    expect(await readdir(join(dir, "own-files-cache", "venvs"))).toHaveLength(2);
  });
});
