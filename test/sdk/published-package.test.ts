import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixtureBundle } from "../support/bundles.js";
import { startTestRegistry, uploadBundle, type TestRegistry } from "../support/registry.js";
import { writePythonTool } from "./support/python-tool-folder.js";
import { processesMatching } from "./support/process-state.js";
import { TempDirs } from "./support/temp-dirs.js";

const run = promisify(execFile);
const repoRoot = fileURLToPath(new URL("../../", import.meta.url));
const temp = new TempDirs();
let registry: TestRegistry;

/** The example, as a user script run with plain `node` against the built package. */
const USER_SCRIPT = `
import { AgentTools } from "@agent-tools/sdk";
const tools = new AgentTools({ toolsDbUrl: process.env.REGISTRY_URL, cacheDir: process.env.CACHE_DIR });
await tools.add("text-stats", { top_n: 2 });
const stats = await tools.executeToolById("text-stats", { text: "the cat and the hat and the bat" });
const command = await tools.executeCommand("text-stats", "set_top_n", { top_n: 3 });
const increment = await tools.executeToolById("binary-increment", { value: 41 });
await tools.close();
console.log(JSON.stringify({ stats, command, increment }));
`;

beforeAll(async () => {
  // What \`npm ci\` runs through the root "prepare" script. Errors elsewhere in the SDK still emit JavaScript.
  await run("npx", ["tsc", "-p", "sdk/tsconfig.build.json"], { cwd: repoRoot }).catch(() => undefined);
  registry = await startTestRegistry();
  for (const name of ["text-stats", "binary-increment"] as const) {
    expect((await uploadBundle(registry.url, registry.token, (await fixtureBundle(name)).bundle)).status).toBe(200);
  }
}, 120_000);

afterAll(async () => {
  await registry?.close();
  await temp.removeAll();
});

describe("the published package shape", () => {
  it("ships JavaScript, declarations and the Python worker", () => {
    for (const file of [
      "sdk/dist/index.js",
      "sdk/dist/index.d.ts",
      "sdk/dist/agent-tools.js",
      "sdk/dist/agent-tools.d.ts",
      "sdk/python/agent_tools_worker.py",
    ]) {
      expect(existsSync(`${repoRoot}${file}`), file).toBe(true);
    }
  });

  it('runs the issue\'s example from plain node with `import { AgentTools } from "@agent-tools/sdk"`', async () => {
    const { stdout } = await run(process.execPath, ["--input-type=module", "-e", USER_SCRIPT], {
      cwd: repoRoot,
      env: { ...process.env, REGISTRY_URL: registry.url, CACHE_DIR: await temp.make() },
    });
    expect(JSON.parse(stdout)).toEqual({
      stats: { word_count: 8, unique_words: 5, top_words: ["the", "and"] },
      command: { top_n: 3 },
      increment: { result: 42, status: "success" },
    });
  });

  it("lets a script that never calls close() exit, and takes its Python worker down with it", async () => {
    const dir = await temp.make();
    const tool = await writePythonTool(
      dir,
      "pid",
      "import os\nclass AgentSpaceV1Tool:\n    def __init__(self, tool_id, tool_data): " +
        "pass\n    def execute(self, input_data):\n        return os.getpid()\n",
    );
    const script = `import { AgentTools } from "@agent-tools/sdk";
const tools = new AgentTools({ cacheDir: process.env.CACHE_DIR });
await tools.add({ path: process.env.TOOL_DIR });
console.log(await tools.executeToolById("pid", {}));`;
    const { stdout } = await run(process.execPath, ["--input-type=module", "-e", script], {
      cwd: repoRoot,
      timeout: 30_000,
      env: { ...process.env, CACHE_DIR: `${dir}/cache`, TOOL_DIR: tool },
    });
    expect(Number(stdout.trim())).toBeGreaterThan(0);
    // Found by its state folder (in its environment): inside a sandbox its pid is another namespace's.
    await expect.poll(() => processesMatching(`AGENT_TOOLS_STATE_DIR=${dir}/cache/`, "environ").length, { timeout: 5_000 }).toBe(0);
  });
});
