/**
 * A small real disk for full-disk tests: a tmpfs of a given size mounted over a temp folder in a
 * private mount namespace (`unshare -m` as root; `unshare -r -m`, a user namespace, otherwise), so
 * nothing on this machine sees the mount and it goes away with the namespace. Processes run inside
 * with `nsenter`; this process reaches the tmpfs through `/proc/<holder>/root`.
 *
 *   const disk = await startSmallDisk(40);          // undefined where mounting is not permitted
 *   const child = disk.spawn(process.execPath, ["script.ts", disk.path("data")]);
 *   disk.fill(); disk.free(); await disk.close();
 */
import { spawn, spawnSync, type ChildProcess, type SpawnOptions } from "node:child_process";
import { closeSync, openSync, rmSync, statfsSync, writeSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface SmallDisk {
  /** A path on the small disk, as processes inside the namespace see it. */
  path(...parts: string[]): string;
  /** The same path as this process reaches it. */
  outside(...parts: string[]): string;
  /** Runs a command inside the namespace (the child's pid is the command's). */
  spawn(command: string, args: string[], options?: SpawnOptions): ChildProcess;
  /** Bytes free on the small disk. */
  freeBytes(): number;
  /** Fills the disk with a filler file until a write fails for want of space, leaving `leave` bytes free. */
  fill(leave?: number): void;
  /** Removes the filler. */
  free(): void;
  close(): Promise<void>;
}

/**
 * How this machine may make a private mount namespace, or why it may not: as root a plain one
 * (`unshare -m`), else (or where root may not) one inside a user namespace (`unshare -r -m`).
 */
export function mountNamespace(): { unshare: string[]; nsenter: string[] } | { reason: string } {
  const ways = [
    { unshare: ["-m"], nsenter: ["-m"] },
    { unshare: ["-r", "-m"], nsenter: ["-U", "-m", "--preserve-credentials"] },
  ].slice(process.getuid?.() === 0 ? 0 : 1);
  const failures: string[] = [];
  for (const way of ways) {
    const probe = spawnSync("unshare", [...way.unshare, "sh", "-c", "mount -t tmpfs -o size=1m tmpfs /mnt"], { encoding: "utf8" });
    if (probe.error === undefined && probe.status === 0) return way;
    failures.push(`unshare ${way.unshare.join(" ")}: ${probe.error?.message ?? probe.stderr.trim()}`);
  }
  return {
    reason:
      `cannot mount a tmpfs in a private mount namespace (${failures.join("; ")}); run as root, or allow ` +
      `user namespaces (sysctl kernel.unprivileged_userns_clone=1, or a container with CAP_SYS_ADMIN)`,
  };
}

export async function startSmallDisk(sizeMiB: number): Promise<SmallDisk> {
  const namespace = mountNamespace();
  if ("reason" in namespace) throw new Error(namespace.reason);
  const mountPoint = await mkdtemp(join(tmpdir(), "agent-tools-small-disk-"));
  // The holder keeps the namespace (and so the tmpfs) alive until `close`.
  const holder = spawn(
    "unshare",
    [
      ...namespace.unshare,
      "sh",
      "-c",
      `mount -t tmpfs -o size=${sizeMiB}m tmpfs "$1" && echo mounted && exec sleep infinity`,
      "sh",
      mountPoint,
    ],
    {
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  await new Promise<void>((resolve, reject) => {
    let stderr = "";
    holder.stderr!.on("data", (chunk) => (stderr += String(chunk)));
    holder.stdout!.once("data", () => resolve());
    holder.once("exit", (code) => reject(new Error(`could not mount the small disk (exit ${code}): ${stderr}`)));
  });
  const path = (...parts: string[]) => join(mountPoint, ...parts);
  const outside = (...parts: string[]) => join(`/proc/${holder.pid}/root`, mountPoint, ...parts);
  const filler = outside("filler");
  const freeBytes = () => {
    const stats = statfsSync(outside());
    return stats.bavail * stats.bsize;
  };
  return {
    path,
    outside,
    // nsenter starts the command in the namespace's root folder unless told the working directory.
    spawn: (command, args, options = {}) =>
      spawn(
        "nsenter",
        ["-t", String(holder.pid), ...namespace.nsenter, `--wd=${String(options.cwd ?? process.cwd())}`, "--", command, ...args],
        {
          stdio: ["ignore", "pipe", "pipe"],
          ...options,
        },
      ),
    freeBytes,
    fill(leave = 0) {
      const descriptor = openSync(filler, "a");
      try {
        const chunk = Buffer.alloc(1024 * 1024);
        for (;;) {
          const room = freeBytes() - leave;
          if (room <= 0) return;
          try {
            writeSync(descriptor, chunk, 0, Math.min(chunk.length, room));
          } catch (error) {
            if ((error as NodeJS.ErrnoException).code === "ENOSPC") return;
            throw error;
          }
        }
      } finally {
        closeSync(descriptor);
      }
    },
    free() {
      rmSync(filler, { force: true });
    },
    async close() {
      const exited = new Promise((resolve) => holder.once("exit", resolve));
      holder.kill("SIGKILL");
      await exited;
      await rm(mountPoint, { recursive: true, force: true });
    },
  };
}
