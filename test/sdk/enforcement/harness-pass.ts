import { execFileSync, spawn, type StdioOptions } from "node:child_process";
import { chownSync, closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { newCanary } from "./canaries.js";
import { RESULTS_FILE, type HarnessPass, type PassConfig, type PassResults } from "./harness-protocol.js";
import { outerWall } from "./outer-wall.js";

/**
 * The agent's descriptor left open for its children: above the 16 that node marks close-on-exec
 * at start-up (libuv's uv_disable_stdio_inheritance), as a descriptor an agent's library opened
 * without O_CLOEXEC would be.
 */
const LEAKED_DESCRIPTOR = 40;

const REPOSITORY = fileURLToPath(new URL("../../..", import.meta.url));
const HARNESS = fileURLToPath(new URL("./harness-run.ts", import.meta.url));

/**
 * Runs one pass of the harness inside the outer wall and returns its results. The throwaway
 * folder lies under /var/tmp (a /tmp path would vanish under the project sandbox's private /tmp,
 * and with it the fake home) and is removed afterwards.
 */
export async function runHarnessPass(pass: HarnessPass, options: { only?: number[]; timeoutMs: number }): Promise<PassResults> {
  const throwaway = mkdtempSync(`/var/tmp/agent-tools-enforcement-${pass}-`);
  const hostOnly = mkdtempSync(join(tmpdir(), "agent-tools-enforcement-fd-"));
  const wall = outerWall(pass, throwaway, REPOSITORY, [process.execPath, "--import", "tsx", HARNESS]);
  try {
    for (const folder of [throwaway, ...wall.mountPoints]) {
      mkdirSync(folder, { recursive: true });
      chownSync(folder, wall.hostUid, wall.hostUid);
    }
    // The descriptor's file lies where the outer wall does not show it: only the open descriptor reaches it.
    const descriptorCanary = newCanary(`fd:${LEAKED_DESCRIPTOR}`);
    const descriptorFile = join(hostOnly, "agent-session.json");
    writeFileSync(descriptorFile, `{"session": "${descriptorCanary.value}"}\n`, { mode: 0o600 });
    chownSync(descriptorFile, wall.hostUid, wall.hostUid);
    const descriptor = openSync(descriptorFile, "r");
    const config: PassConfig = {
      pass,
      throwaway,
      descriptor: { fd: LEAKED_DESCRIPTOR, canary: descriptorCanary.value },
      outsideRoots: wall.outsideRoots,
      ...(options.only === undefined ? {} : { only: options.only }),
    };
    const stdio: StdioOptions = ["pipe", "pipe", "pipe", ...Array<"ignore">(LEAKED_DESCRIPTOR - 3).fill("ignore"), descriptor];
    // Its own process group: setpriv's change of uid clears the parent-death signal, so a deadline kills the whole group.
    const child = spawn(wall.command, wall.args, { stdio, detached: true });
    closeSync(descriptor);
    let log = "";
    child.stdout!.on("data", (data: Buffer) => (log += data.toString()));
    child.stderr!.on("data", (data: Buffer) => (log += data.toString()));
    // stdin stays open while the pass runs: its end tells the harness inside that this process is gone.
    child.stdin!.write(`${JSON.stringify(config)}\n`);
    const deadline = setTimeout(() => process.kill(-child.pid!, "SIGKILL"), options.timeoutMs);
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    clearTimeout(deadline);
    child.stdin!.destroy();
    if (code !== 0)
      throw new Error(
        `the ${pass} pass of the enforcement harness exited with ${code ?? "a kill past its deadline"}:\n${log.slice(-4000)}`,
      );
    return JSON.parse(readFileSync(join(throwaway, RESULTS_FILE), "utf8")) as PassResults;
  } finally {
    // Tens of thousands of small files: rm(1) removes them several times faster than fs.rmSync.
    execFileSync("rm", ["-rf", "--one-file-system", throwaway, hostOnly]);
  }
}
