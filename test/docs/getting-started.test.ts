import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { REPO_ROOT, codeBlocks } from "./support/markdown-pages.js";
import { transcriptMismatch } from "./support/transcript.js";

// Runs docs/getting-started.md as a reader would: its `sh terminal-1` block (the registry) as a
// real process, then every other shell and JS block in order in "terminal 2" (variables set by
// one block are seen by the next), each output checked against the `text` block shown after it.
// Only the port differs from the page: the page's 6000 becomes a free one. `sh install` blocks
// (`npm ci`) are what produced this checkout, so they are not run again.

const PAGE = "docs/getting-started.md";
const PAGE_URL = "http://127.0.0.1:6000";

interface Step {
  kind: "registry" | "shell" | "js";
  code: string;
  expected?: string;
}

function pageSteps(url: string): Step[] {
  const steps: Step[] = [];
  for (const block of codeBlocks(PAGE)) {
    const [lang, tag] = (block.lang ?? "").split(/\s+/);
    const text = block.text.replaceAll(PAGE_URL, url);
    if (lang === "text") {
      const previous = steps.at(-1);
      if (!previous || previous.expected !== undefined)
        throw new Error(`${PAGE}: a text block must follow the block whose output it shows:\n${text}`);
      previous.expected = text;
    } else if (lang === "sh" && tag === "install") continue;
    else if (lang === "sh") steps.push({ kind: tag === "terminal-1" ? "registry" : "shell", code: text });
    else if (lang === "js") steps.push({ kind: "js", code: text });
    else throw new Error(`${PAGE}: a ${lang} block would not be run; use sh, js or text`);
  }
  return steps;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

interface Finished {
  code: number | null;
  output: string;
}

function run(command: string[], options: { env: NodeJS.ProcessEnv; stdin?: string }): Promise<Finished> {
  return new Promise((resolve, reject) => {
    const child = spawn(command[0]!, command.slice(1), {
      cwd: REPO_ROOT,
      env: options.env,
      stdio: [options.stdin === undefined ? "ignore" : "pipe", "pipe", "pipe"],
    });
    let output = "";
    child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, output }));
    // A process that exits without reading its input fails on its exit status, not on EPIPE here.
    child.stdin?.on("error", () => undefined);
    child.stdin?.end(options.stdin);
  });
}

const scratch = await mkdtemp(join(tmpdir(), "getting-started-"));
let registry: ChildProcess | undefined;

afterAll(async () => {
  if (registry?.pid !== undefined && registry.exitCode === null) process.kill(-registry.pid, "SIGTERM");
  await new Promise((resolve) => (registry && registry.exitCode === null ? registry.once("close", resolve) : resolve(undefined)));
  await rm(scratch, { recursive: true, force: true });
});

describe(PAGE, () => {
  it("runs top to bottom, each block printing what the page shows", { timeout: 180_000 }, async () => {
    const port = await freePort();
    const steps = pageSteps(`http://127.0.0.1:${port}`);
    expect(steps.map((step) => step.kind)).toContain("registry");
    const inherited = Object.fromEntries(
      Object.entries(process.env).filter(([name]) => !name.startsWith("AGENT_TOOLS_") && name !== "REGISTRY_TOKEN"),
    );
    // A reader's terminal: their own temp folder and tool cache, here private to this run.
    const terminal = { ...inherited, TMPDIR: scratch, AGENT_TOOLS_CACHE_DIR: join(scratch, "cache") };
    const state = join(scratch, "terminal-2.env");
    await run(["bash", "-c", `declare -p > '${state}'`], { env: terminal });

    for (const step of steps) {
      if (step.kind === "registry") {
        registry = await startRegistry(step, { ...terminal, PORT: String(port) });
        continue;
      }
      // Each block sees the variables the blocks before it set, as in one terminal (bash's own read-only ones
      // cannot be restored, and need not be).
      const restore = `source '${state}' 2>/dev/null; set -euo pipefail;`;
      const save = `declare -p > '${state}'`;
      const finished =
        step.kind === "shell"
          ? await run(["bash", "-c", `${restore}\n${step.code}\n${save}`], { env: terminal })
          : await run(["bash", "-c", `${restore} node --input-type=module`], { env: terminal, stdin: step.code });
      const context = `${step.kind} block:\n${step.code}\n\noutput:\n${finished.output}`;
      expect(finished.code, context).toBe(0);
      if (step.expected !== undefined) expect(transcriptMismatch(step.expected, finished.output), context).toBeUndefined();
    }
  });
});

/** Starts the page's registry command and waits until its output shows what the page shows. */
async function startRegistry(step: Step, env: NodeJS.ProcessEnv): Promise<ChildProcess> {
  const child = spawn("bash", ["-c", step.code], { cwd: REPO_ROOT, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const deadline = Date.now() + 60_000;
  while (transcriptMismatch(step.expected ?? "…", output) !== undefined) {
    if (child.exitCode !== null || Date.now() > deadline)
      throw new Error(`the registry did not start as the page shows:\n${transcriptMismatch(step.expected ?? "…", output)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return child;
}
