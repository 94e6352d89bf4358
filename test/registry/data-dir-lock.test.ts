// The data-folder lock: held by a live registry, taken over from a dead, zombie or recycled pid.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { holdsLock, lockDataDir } from "../../functions/local/data-dir-lock.js";

let dataDir: string;

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), "agent-tools-lock-"));
});

afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

function startTimeOf(pid: number): string {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19]!;
}

/** A zombie: a child that exited while its parent (sleeping, never waiting) keeps it unreaped. */
async function withZombie(use: (pid: number) => Promise<void>): Promise<void> {
  const parent = spawn("python3", ["-c", "import os,sys,time\npid=os.fork()\nif pid==0: os._exit(0)\nprint(pid,flush=True)\ntime.sleep(30)"], { stdio: ["ignore", "pipe", "inherit"] });
  try {
    const pid = Number(await new Promise<string>((resolve) => parent.stdout.once("data", (chunk) => resolve(String(chunk).trim()))));
    while (!readFileSync(`/proc/${pid}/stat`, "utf8").includes(") Z ")) await new Promise((resolve) => setTimeout(resolve, 10));
    await use(pid);
  } finally {
    parent.kill("SIGKILL");
  }
}

describe("data-folder lock", () => {
  it("refuses a folder a live registry holds, and frees it on unlock", async () => {
    const unlock = await lockDataDir(dataDir);
    await expect(lockDataDir(dataDir)).rejects.toThrow(/another registry \(pid \d+\) is using the data folder/);
    await unlock();
    await (await lockDataDir(dataDir))();
  });

  it("takes over a lock whose process is a zombie", async () => {
    await withZombie(async (pid) => {
      expect(holdsLock(pid, startTimeOf(pid))).toBe(false);
      await writeFile(join(dataDir, "registry.pid"), `${pid} ${startTimeOf(pid)}\n`);
      const unlock = await lockDataDir(dataDir);
      expect((await readFile(join(dataDir, "registry.pid"), "utf8")).split(" ")[0]).toBe(String(process.pid));
      await unlock();
    });
  });

  it("takes over a lock whose process is gone, or whose pid now names another process", async () => {
    await writeFile(join(dataDir, "registry.pid"), "999999999\n");
    await (await lockDataDir(dataDir))();
    // Our own pid, but a start time that is not ours: the pid was recycled.
    await writeFile(join(dataDir, "registry.pid"), `${process.pid} 1\n`);
    expect(holdsLock(process.pid, "1")).toBe(false);
    await (await lockDataDir(dataDir))();
    expect(holdsLock(process.pid, startTimeOf(process.pid))).toBe(true);
  });
});
