import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { compileC } from "../../support/bundles.js";
import {
  CONCURRENT_CALLS,
  CONCURRENT_SCENARIO,
  SCENARIOS,
  type HostileOutputReport,
  type ScenarioResult,
} from "./support/hostile-output-scenarios.js";
import { HOSTILE_OUTPUT_SOURCE } from "./support/hostile-binary-tool.js";

/**
 * A binary tool's output is read through the call folder's held descriptor, never following a
 * link, regular files only, bounded (docs/sandbox.md#tool-output). The hostile scenarios run in
 * child processes, as this user and, when it is root, as the unprivileged `nobody` too.
 */
const RUNNER = fileURLToPath(new URL("./support/run-hostile-output.ts", import.meta.url));
const REPO = fileURLToPath(new URL("../../../", import.meta.url));
const NOBODY = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--"];
const asRoot = process.getuid?.() === 0;
const users = asRoot ? ["root", "nobody"] : ["this user"];
const reports = new Map<string, HostileOutputReport>();

/** Lines of files no tool's answer may carry, readable here only as root. */
const protectedLines = ["/etc/shadow", "/etc/passwd"].flatMap((path) => {
  try {
    return readFileSync(path, "utf8")
      .split("\n")
      .filter((line) => line.length > 8);
  } catch {
    return [];
  }
});

async function runAs(user: string): Promise<HostileOutputReport> {
  const command = [...(user === "nobody" ? NOBODY : []), process.execPath, "--import", "tsx", RUNNER];
  const { stdout } = await promisify(execFile)(command[0]!, command.slice(1), {
    cwd: REPO,
    env: { ...process.env, ...(user === "nobody" ? { HOME: "/tmp" } : {}) },
    maxBuffer: 16 * 1024 * 1024,
  });
  return JSON.parse(stdout) as HostileOutputReport;
}

beforeAll(async () => {
  // Built once here, world-readable, so the unprivileged run reuses it.
  await compileC(HOSTILE_OUTPUT_SOURCE, "hostile-output");
  const runs = await Promise.all(users.map((user) => runAs(user)));
  for (const [index, user] of users.entries()) reports.set(user, runs[index]!);
}, 240_000);

describe.each(users)("hostile binary output, run as %s", (user) => {
  const report = () => reports.get(user)!;
  const results = (mode?: string) => report().results.filter((result) => mode === undefined || result.mode === mode);
  const named = (result: ScenarioResult) => `${result.mode}: ${result.scenario}`;

  it("runs as that user, every scenario unsandboxed and sandboxed", () => {
    expect(report().uid).toBe(user === "nobody" ? 65534 : process.getuid?.());
    const expected = (mode: string) => [
      ...SCENARIOS.filter((s) => mode === "required" || !s.sandboxedOnly).map((s) => s.name),
      CONCURRENT_SCENARIO,
    ];
    expect(results("off").map((result) => result.scenario)).toEqual(expected("off"));
    expect(results("required").map((result) => result.scenario)).toEqual(expected("required"));
  });

  it("no secret byte in any result or error: no agent secret, no line of /etc/shadow or /etc/passwd", () => {
    for (const result of results()) {
      const text = JSON.stringify(result);
      expect(text, named(result)).not.toContain(report().secret);
      for (const line of protectedLines) expect(text, named(result)).not.toContain(line);
    }
  });

  it("each call settles as the contract says: refused with what was found, or the tool's own answer", () => {
    for (const result of results()) {
      if (result.scenario === CONCURRENT_SCENARIO) continue;
      const expected = SCENARIOS.find((scenario) => scenario.name === result.scenario)!.expected;
      if ("value" in expected) expect(result.outcome, named(result)).toEqual({ value: expected.value });
      else {
        expect(result.outcome.error?.code, named(result)).toBe(expected.code);
        expect(result.outcome.error?.message, named(result)).toMatch(expected.message);
      }
    }
  });

  it("the next call works after every attack, and calls run side by side", () => {
    for (const result of results()) expect(result.next, named(result)).toEqual({ value: { ok: true, value: 7 } });
    for (const result of results().filter((r) => r.scenario === CONCURRENT_SCENARIO)) {
      // Each answers only once all have started: run one at a time, the first would give up seeing 1.
      expect(result.outcome.value, named(result)).toEqual(
        Array.from({ length: CONCURRENT_CALLS }, (_, value) => ({ value, seen: CONCURRENT_CALLS })),
      );
    }
  });

  it("nothing a call started outlives its timeout or the sandbox, and no planted link is followed when folders are removed", () => {
    const counted = results().filter((result) => result.leftRunning !== undefined);
    expect(counted.map(named)).toContain("required: a child escapes the call's process group");
    for (const result of counted) expect(result.leftRunning, named(result)).toBe(0);
    for (const result of results().filter((r) => r.linkedFolderIntact !== undefined))
      expect(result.linkedFolderIntact, named(result)).toBe(true);
  });
});
