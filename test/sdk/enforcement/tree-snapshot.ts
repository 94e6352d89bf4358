import { createHash } from "node:crypto";
import { lstatSync, readdirSync, readFileSync, readlinkSync, type BigIntStats } from "node:fs";
import { join } from "node:path";

/** Path → what is there (type, mode, and a content hash, link target or size). */
export type Snapshot = Map<string, string>;

export interface SnapshotRoot {
  path: string;
  /** Absolute paths left out with everything below them. */
  exclude?: readonly string[];
}

/**
 * Content hashes by file identity and change time: the kernel moves a file's ctime on every write
 * and metadata change, and no program can set it back, so an unchanged ctime means unchanged bytes.
 */
const hashes = new Map<string, string>();

/** Everything below the roots, by lstat (links are recorded, never followed). */
export function takeSnapshot(roots: readonly SnapshotRoot[]): Snapshot {
  const snapshot: Snapshot = new Map();
  for (const root of roots) walk(root.path, new Set(root.exclude ?? []), snapshot);
  return snapshot;
}

function walk(path: string, exclude: ReadonlySet<string>, snapshot: Snapshot): void {
  if (exclude.has(path)) return;
  let info: BigIntStats;
  try {
    info = lstatSync(path, { bigint: true });
  } catch {
    return;
  }
  const mode = (info.mode & 0o7777n).toString(8);
  if (info.isSymbolicLink()) snapshot.set(path, `link ${readlinkSync(path)}`);
  else if (info.isFile()) snapshot.set(path, `file ${mode} ${contentHash(path, info)}`);
  else if (info.isDirectory()) {
    snapshot.set(path, `dir ${mode}`);
    let names: string[] = [];
    try {
      names = readdirSync(path);
    } catch {
      // A folder a command made unreadable still counts by its entry above.
    }
    for (const name of names) walk(join(path, name), exclude, snapshot);
  } else snapshot.set(path, `special ${mode} ${info.isFIFO() ? "fifo" : info.isSocket() ? "socket" : "device"}`);
}

function contentHash(path: string, info: BigIntStats): string {
  const identity = `${path} ${info.dev} ${info.ino} ${info.size} ${info.ctimeNs}`;
  let hash = hashes.get(identity);
  if (hash === undefined) {
    try {
      hash = createHash("sha1").update(readFileSync(path)).digest("hex");
    } catch {
      return `unreadable size ${info.size}`;
    }
    hashes.set(identity, hash);
  }
  return hash;
}

export interface SnapshotChanges {
  created: string[];
  modified: string[];
  deleted: string[];
}

export function compareSnapshots(before: Snapshot, after: Snapshot): SnapshotChanges {
  const changes: SnapshotChanges = { created: [], modified: [], deleted: [] };
  for (const [path, signature] of after) {
    const old = before.get(path);
    if (old === undefined) changes.created.push(path);
    else if (old !== signature) changes.modified.push(path);
  }
  for (const path of before.keys()) if (!after.has(path)) changes.deleted.push(path);
  return changes;
}

export function hasChanges(changes: SnapshotChanges): boolean {
  return changes.created.length + changes.modified.length + changes.deleted.length > 0;
}
