/**
 * The SDK as another project gets it: `npm pack` in sdk/ (from the sdk/dist that `npm ci` builds),
 * `npm install <tarball>` into a fresh project outside this repository, then a tool published to a
 * real registry is added and run from a plain `node` script, and the `agent-tools` bin runs one too.
 */
import { execFile } from "node:child_process";
import { mkdir, readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixtureBundle, FIXTURE_TOOLS_DIR } from "../support/bundles.js";
import { startTestRegistry, uploadBundle, type TestRegistry } from "../support/registry.js";
import { TempDirs } from "./support/temp-dirs.js";

const run = promisify(execFile);
const sdkDir = fileURLToPath(new URL("../../sdk/", import.meta.url));
const temp = new TempDirs();
let registry: TestRegistry;
let project: string;

beforeAll(async () => {
  const [started, packDir] = await Promise.all([startTestRegistry(), temp.make()]);
  registry = started;
  expect((await uploadBundle(registry.url, registry.token, (await fixtureBundle("text-stats")).bundle)).status).toBe(200);
  await run("npm", ["pack", "--pack-destination", packDir, "--silent"], { cwd: sdkDir });
  const [tarball] = (await readdir(packDir)).filter((name) => name.endsWith(".tgz"));
  project = join(await temp.make(), "consumer");
  await mkdir(project);
  await writeFile(join(project, "package.json"), JSON.stringify({ name: "consumer", private: true, type: "module" }));
  // --prefer-offline: the dependencies are the ones this repository's own install already fetched.
  await run("npm", ["install", join(packDir, tarball!), "--no-audit", "--no-fund", "--prefer-offline"], { cwd: project, timeout: 240_000 });
}, 300_000);

afterAll(async () => {
  await registry?.close();
  await temp.removeAll();
});

describe("the packed SDK in a fresh project", () => {
  it("ships its README, and adds and runs a registry tool from a plain node script", async () => {
    expect(await readdir(join(project, "node_modules/@agent-tools/sdk"))).toEqual(
      expect.arrayContaining(["README.md", "dist", "python", "bin", "package.json"]),
    );
    const script = `import { AgentTools } from "@agent-tools/sdk";
const tools = new AgentTools({ toolsDbUrl: process.env.REGISTRY_URL, cacheDir: process.env.CACHE_DIR });
await tools.add("text-stats", { top_n: 2 });
console.log(JSON.stringify(await tools.executeToolById("text-stats", { text: "the cat and the hat and the bat" })));
await tools.close();`;
    await writeFile(join(project, "index.mjs"), script);
    const { stdout } = await run(process.execPath, ["index.mjs"], {
      cwd: project,
      env: { ...process.env, REGISTRY_URL: registry.url, CACHE_DIR: await temp.make() },
    });
    expect(JSON.parse(stdout)).toEqual({ word_count: 8, unique_words: 5, top_words: ["the", "and"] });
  });

  it("installs the agent-tools command, which runs a tool folder", async () => {
    const bin = join(project, "node_modules/.bin/agent-tools");
    const { stdout } = await run(
      bin,
      ["run", join(FIXTURE_TOOLS_DIR, "text-stats"), "--input", '{"text": "x y x"}', "--cache-dir", await temp.make()],
      { cwd: project },
    );
    expect(JSON.parse(stdout)).toEqual({ word_count: 3, unique_words: 2, top_words: ["x", "y"] });
  });
});
