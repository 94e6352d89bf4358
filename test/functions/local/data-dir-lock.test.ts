// The data-folder lock: held by a live registry, taken over from a dead, zombie or recycled pid.
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createHash } from "node:crypto";
import { holdsLock, lockDataDir } from "../../../functions/local/data-dir-lock.js";
import { openLocalStorage } from "../../../functions/local/open-local-storage.js";
import { ArchiveStore } from "../../../functions/storage/archive-store.js";
import { createS3Client } from "../../../functions/storage/aws-clients.js";

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
  const parent = spawn(
    "python3",
    ["-c", "import os,sys,time\npid=os.fork()\nif pid==0: os._exit(0)\nprint(pid,flush=True)\ntime.sleep(30)"],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
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
    const lock = await lockDataDir(dataDir);
    expect(lock.afterUncleanStop).toBe(false);
    await expect(lockDataDir(dataDir)).rejects.toThrow(/another registry \(pid \d+\) is using the data folder/);
    await lock.release();
    const next = await lockDataDir(dataDir);
    expect(next.afterUncleanStop).toBe(false);
    await next.release();
  });

  it("takes over a lock whose process is a zombie", async () => {
    await withZombie(async (pid) => {
      expect(holdsLock(pid, startTimeOf(pid))).toBe(false);
      await writeFile(join(dataDir, "registry.pid"), `${pid} ${startTimeOf(pid)}\n`);
      const lock = await lockDataDir(dataDir);
      expect(lock.afterUncleanStop).toBe(true);
      expect((await readFile(join(dataDir, "registry.pid"), "utf8")).split(" ")[0]).toBe(String(process.pid));
      await lock.release();
    });
  });

  it("takes over a lock whose process is gone, or whose pid now names another process", async () => {
    await writeFile(join(dataDir, "registry.pid"), "999999999\n");
    const lock = await lockDataDir(dataDir);
    expect(lock.afterUncleanStop).toBe(true);
    await lock.release();
    // Our own pid, but a start time that is not ours: the pid was recycled.
    await writeFile(join(dataDir, "registry.pid"), `${process.pid} 1\n`);
    expect(holdsLock(process.pid, "1")).toBe(false);
    await (await lockDataDir(dataDir)).release();
    expect(holdsLock(process.pid, startTimeOf(process.pid))).toBe(true);
  });

  it("after an unclean stop, removes the s3rver files a kill cut short, so the archive reads and verifies again", async () => {
    const bytes = new TextEncoder().encode("archive bytes acknowledged before the kill");
    const sha = createHash("sha256").update(bytes).digest("hex");
    const open = async () => {
      const storage = await openLocalStorage(dataDir);
      const archives = new ArchiveStore(createS3Client({ ...storage.config, storageMaxAttempts: 1 }), storage.config.bucketName);
      return { storage, archives };
    };
    let { storage, archives } = await open();
    expect(await archives.putOnce(sha, bytes)).toBe("written");
    await storage.close();
    // What a SIGKILL during s3rver's metadata writes leaves: both side files cut short.
    const stem = join(dataDir, "s3", storage.config.bucketName, "archives", `${sha}._S3rver_`);
    await writeFile(`${stem}metadata.json`, '{"content-type":');
    await writeFile(`${stem}object.md5`, "");
    // And the temporary file of an object write the kill cut short.
    const partial = `${stem}object.00000000-0000-4000-8000-000000000000.partial`;
    await writeFile(partial, "the first bytes of an arch");
    ({ storage, archives } = await open());
    // A clean restart leaves the files alone: s3rver cannot serve the key at all.
    await expect(archives.get(sha)).rejects.toThrow();
    await storage.close();
    await writeFile(join(dataDir, "registry.pid"), "999999999\n");
    ({ storage, archives } = await open());
    try {
      expect(existsSync(partial)).toBe(false);
      expect(Buffer.from((await archives.get(sha))!).equals(Buffer.from(bytes))).toBe(true);
      expect(await archives.putOnce(sha, bytes)).toBe("present");
    } finally {
      await storage.close();
    }
  });
});
