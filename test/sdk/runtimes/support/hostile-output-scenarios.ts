/**
 * Hostile binary tools attacking how the agent reads their output (docs/sandbox.md#tool-output),
 * each run through `AgentTools` unsandboxed and sandboxed, by whatever user runs this module: the
 * test runs it in a child process as itself and, when that is root, as an unprivileged user too
 * (`run-hostile-output.ts`). Every scenario records the call's outcome and whether the next call
 * still works; the test asserts on the report.
 */
import { randomUUID } from "node:crypto";
import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { constants, tmpdir } from "node:os";
import { join } from "node:path";
import { AgentTools } from "../../../../sdk/src/index.js";
import { processesMatching } from "../../support/process-state.js";
import { writeHostileBinaryTool } from "./hostile-binary-tool.js";

export const CALL_TIMEOUT_MS = 3_000;
export const OUTPUT_FILE_LIMIT = 1024 * 1024;
export const CONCURRENT_CALLS = 6;
export const CONCURRENT_SCENARIO = "concurrent calls";

export type Mode = "off" | "required";

export interface Outcome {
  value?: unknown;
  error?: { name: string; code: string | undefined; message: string };
}

export interface ScenarioResult {
  mode: Mode;
  scenario: string;
  outcome: Outcome;
  /** The benign call made right after: `{ ok: true, value }` when the tool still works. */
  next: Outcome;
  /** Processes carrying the scenario's marker once it was over (see each scenario). */
  leftRunning?: number;
  /** Whether the agent's folder the tool linked to still holds its file. */
  linkedFolderIntact?: boolean;
}

export interface HostileOutputReport {
  uid: number;
  secret: string;
  results: ScenarioResult[];
}

export type Expected = { value: unknown } | { code: string; message: RegExp };

interface Scenario {
  name: string;
  expected: Expected;
  input: (paths: Paths, marker: string) => Record<string, unknown>;
  /** Scenarios whose attack needs the sandbox to be harmless (kill(-1), linking host files). */
  sandboxedOnly?: boolean;
  /** Count processes carrying the marker after the call (`call`) or after `close()` (`close`). */
  leftRunning?: "call" | "close";
  /** It starts a process in a session of its own: unsandboxed, that is the agent's own process, left alone. */
  escapes?: boolean;
}

interface Paths {
  secretFile: string;
  secretFolder: string;
  linkedFolder: string;
  toolFile: string;
}

const EXDEV = constants.errno.EXDEV;
const refusedAs = (found: RegExp): Expected => ({ code: "TOOL_OUTPUT_INVALID", message: found });

/** The attacks, each with what the agent must answer: never anything but what the tool wrote itself. */
export const SCENARIOS: Scenario[] = [
  {
    name: "output is a symlink to an agent secret",
    input: (p) => ({ attack: "symlink", target: p.secretFile }),
    expected: refusedAs(/output file is a symbolic link; the binary contract wants/),
  },
  {
    name: "output is a symlink to /etc/shadow",
    input: () => ({ attack: "symlink", target: "/etc/shadow" }),
    expected: refusedAs(/output file is a symbolic link/),
  },
  { name: "output is a FIFO", input: () => ({ attack: "fifo" }), expected: refusedAs(/output file is a FIFO \(named pipe\)/) },
  { name: "output is a directory", input: () => ({ attack: "directory" }), expected: refusedAs(/output file is a directory/) },
  // A system-call filter refusing AF_UNIX sockets leaves no file at all: that is refused too.
  {
    name: "output is a unix socket",
    input: () => ({ attack: "socket" }),
    expected: refusedAs(/output file is a socket|without writing its output file/),
  },
  {
    name: "output is larger than the limit",
    input: () => ({ attack: "huge", bytes: OUTPUT_FILE_LIMIT * 2 }),
    expected: refusedAs(/holds 2097152 bytes, more than outputFileLimitBytes \(1048576\)/),
  },
  {
    name: "output is a sparse 512 MiB file",
    input: () => ({ attack: "sparse", bytes: 512 * 1024 * 1024 }),
    expected: refusedAs(/holds 536870912 bytes, more than outputFileLimitBytes/),
  },
  {
    name: "call folder renamed, its path a symlink to an agent folder",
    input: (p) => ({ attack: "rename-folder", target: p.secretFolder }),
    expected: { value: { original: true } },
  },
  {
    name: "call folder renamed, another folder in its place",
    input: () => ({ attack: "replace-folder" }),
    expected: { value: { original: true } },
  },
  {
    name: "stderr replaced by a symlink to an agent secret",
    input: (p) => ({ attack: "stderr-symlink", target: p.secretFile }),
    expected: { code: "TOOL_EXECUTION_FAILED", message: /exited with code 7 and wrote nothing to stderr/ },
  },
  {
    name: "links planted in the call folder and the outbox",
    input: (p) => ({ attack: "plant-links", target: p.linkedFolder }),
    expected: { value: { planted: true } },
  },
  {
    name: "output hard-linked to /etc/passwd",
    input: () => ({ attack: "hardlink", target: "/etc/passwd" }),
    expected: { value: { link_errno: EXDEV } },
    sandboxedOnly: true,
  },
  {
    name: "output hard-linked to the tool's own file",
    input: (p) => ({ attack: "hardlink", target: p.toolFile }),
    expected: { value: { link_errno: EXDEV } },
    sandboxedOnly: true,
  },
  {
    name: "never exits",
    input: (_, marker) => ({ attack: "never", marker }),
    expected: { code: "TOOL_TIMEOUT", message: /did not answer within 3000 ms/ },
    leftRunning: "call",
  },
  {
    name: "a child escapes the call's process group",
    input: (_, marker) => ({ attack: "escape", marker }),
    expected: { value: { ok: true } },
    leftRunning: "close",
    escapes: true,
  },
  {
    name: "a child escapes the process group, then the call hangs",
    input: (_, marker) => ({ attack: "escape-and-hang", marker }),
    expected: { code: "TOOL_TIMEOUT", message: /did not answer within 3000 ms/ },
    leftRunning: "call",
    escapes: true,
  },
  { name: "a segfault", input: () => ({ attack: "segv" }), expected: { code: "TOOL_CRASHED", message: /signal SIGSEGV/ } },
  {
    name: "kills every process it can signal",
    input: () => ({ attack: "kill-all" }),
    expected: { code: "TOOL_CRASHED", message: /signal SIGKILL/ },
    sandboxedOnly: true,
  },
];

export async function runHostileOutputScenarios(): Promise<HostileOutputReport> {
  const work = await mkdtemp(join(tmpdir(), "agent-tools-hostile-output-"));
  const secret = `host-secret-${randomUUID()}`;
  const paths: Paths = {
    secretFile: join(work, "secret.json"),
    secretFolder: join(work, "secret-folder"),
    linkedFolder: join(work, "linked-folder"),
    toolFile: join(work, "hostile", "code", "hostile"),
  };
  // Valid JSON, so a reader that followed a link would hand it back as the tool's result.
  await writeFile(paths.secretFile, JSON.stringify({ secret }), { mode: 0o600 });
  await mkdir(paths.secretFolder);
  await writeFile(join(paths.secretFolder, "output.json"), JSON.stringify({ secret }), { mode: 0o600 });
  await mkdir(paths.linkedFolder);
  await writeFile(join(paths.linkedFolder, "keep.txt"), "the agent's file");
  await writeHostileBinaryTool(work, "hostile");

  const results: ScenarioResult[] = [];
  try {
    for (const mode of ["off", "required"] as const) {
      for (const scenario of SCENARIOS) {
        if (scenario.sandboxedOnly && mode === "off") continue;
        results.push(await runScenario(work, mode, scenario, paths));
      }
      results.push(await runConcurrently(work, mode));
    }
  } finally {
    await rm(work, { recursive: true, force: true });
  }
  return { uid: process.getuid?.() ?? -1, secret, results };
}

async function runScenario(work: string, mode: Mode, scenario: Scenario, paths: Paths): Promise<ScenarioResult> {
  const tools = newAgentTools(work, mode);
  const marker = `hostile-marker-${randomUUID()}`;
  try {
    await tools.add({ path: join(work, "hostile") });
    const outcome = await outcomeOf(tools.executeToolById("hostile", scenario.input(paths, marker)));
    const result: ScenarioResult = {
      mode,
      scenario: scenario.name,
      outcome,
      next: await outcomeOf(tools.executeToolById("hostile", { attack: "ok", value: 7 })),
    };
    const counted = scenario.escapes && mode === "off" ? undefined : scenario.leftRunning;
    if (counted === "call") result.leftRunning = await settledCount(marker);
    await tools.close();
    if (counted === "close") result.leftRunning = await settledCount(marker);
    result.linkedFolderIntact = (await readdir(paths.linkedFolder)).includes("keep.txt");
    return result;
  } finally {
    await tools.close();
    // Unsandboxed, an escaped child is the agent's own process: end it here.
    for (const pid of processesMatching(marker, "cmdline")) process.kill(pid, "SIGKILL");
  }
}

/** Calls that only answer once all have started: they must run side by side, each with its own answer. */
async function runConcurrently(work: string, mode: Mode): Promise<ScenarioResult> {
  const tools = newAgentTools(work, mode);
  try {
    await tools.add({ path: join(work, "hostile") });
    const calls = Array.from({ length: CONCURRENT_CALLS }, (_, value) =>
      tools.executeToolById("hostile", { attack: "barrier", value, count: CONCURRENT_CALLS }),
    );
    const outcome = await outcomeOf(Promise.all(calls));
    return {
      mode,
      scenario: CONCURRENT_SCENARIO,
      outcome,
      next: await outcomeOf(tools.executeToolById("hostile", { attack: "ok", value: 7 })),
    };
  } finally {
    await tools.close();
    await rm(join(work, `cache-${mode}`, "state"), { recursive: true, force: true });
  }
}

function newAgentTools(work: string, mode: Mode): AgentTools {
  return new AgentTools({
    cacheDir: join(work, `cache-${mode}`),
    sandbox: mode,
    callTimeoutMs: CALL_TIMEOUT_MS,
    outputFileLimitBytes: OUTPUT_FILE_LIMIT,
  });
}

async function outcomeOf(call: Promise<unknown>): Promise<Outcome> {
  try {
    return { value: await call };
  } catch (error) {
    const { name, code, message } = error as Error & { code?: string };
    return { error: { name, code, message } };
  }
}

/** Processes carrying `marker`, once that count has stopped falling (killed processes take a moment to go). */
async function settledCount(marker: string): Promise<number> {
  let count = processesMatching(marker, "cmdline").length;
  for (let waited = 0; count > 0 && waited < 3_000; waited += 50) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    count = processesMatching(marker, "cmdline").length;
  }
  return count;
}
