import { execFile } from "node:child_process";
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AgentTools, ToolEnvironmentError } from "@agent-tools/sdk";
import { writePythonTool } from "../support/python-tool-folder.js";
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
      "import sys\nclass AgentSpaceV1Tool:\n    def __init__(self, tool_id, tool_data): pass\n    def execute(self, input_data):\n        return sys.prefix\n";
    await tools.add({ path: await writePythonTool(dir, "no-deps", source, { "requirements.txt": "\n# nothing\n" }) });
    expect(await tools.executeToolById("no-deps", {})).not.toContain(join(dir, "cache"));
  });

  it("a requirement pip cannot install is a ToolEnvironmentError with pip's reason; nothing half-built stays", async () => {
    const path = await writePythonTool(dir, "missing-dep", REPORTING_TOOL, {
      "requirements.txt": "no-such-package-for-agent-tools==9.9\n",
    });
    const error = await tools.add({ path }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ToolEnvironmentError);
    expect(error).toMatchObject({ code: "TOOL_ENVIRONMENT_FAILED", toolId: "missing-dep" });
    expect((error as Error).message).toMatch(
      /installing code\/requirements.txt failed .*No matching distribution found for no-such-package-for-agent-tools/s,
    );
    expect(await readdir(join(dir, "cache", "venvs"))).toHaveLength(1);
    expect(((await tools.executeToolById("needs-dep", {})) as Record<string, string>).value).toBe("installed offline from a wheel");
  });
});
