import { createHash } from "node:crypto";
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { privateTempFolder } from "./private-temp-folder.js";

/**
 * Who a sandboxed process is on the host (docs/sandbox.md#a-root-agent). An ordinary agent's
 * sandbox runs as the agent's own uid, mapped into a user namespace of its own. A root agent's
 * sandbox never runs as uid 0: the kernel decides some writes on the caller's uid alone (a sysctl
 * such as `kernel.core_pattern` is writable by uid 0 without any capability), so it runs as an
 * unprivileged uid that owns nothing on the host. Folders it must write are mapped to it (an
 * idmapped mount, `sandbox-idmap.py`), so what it writes there is stored as root's, as the agent
 * would have written it.
 */
export interface SandboxUser {
  uid: number;
  gid: number;
  /** True when the agent is root and the sandbox switches to `uid`/`gid` (idmapped writable folders). */
  switched: boolean;
}

/** First choice for a root agent's sandbox; lower numbers are tried when the host's passwd or group uses it. */
const PREFERRED_ID = 64_999;
const LOWEST_ID = 64_000;

let rootSandboxUser: SandboxUser | undefined;

/** The identity sandboxed processes of this agent run as. */
export function sandboxUser(): SandboxUser {
  const uid = process.getuid?.() ?? 0;
  const gid = process.getgid?.() ?? 0;
  if (uid !== 0 || !isHostRoot()) return { uid, gid, switched: false };
  rootSandboxUser ??= freeIdentity();
  return rootSandboxUser;
}

/**
 * Whether this process's uid 0 is the host's: true unless its user namespace maps 0 to another
 * uid (root inside a container's or a sandbox's own user namespace is an ordinary user outside,
 * and its sandboxes nest a user namespace of their own, as an ordinary agent's do).
 */
function isHostRoot(): boolean {
  let map: string;
  try {
    map = readFileSync("/proc/self/uid_map", "utf8");
  } catch {
    return true;
  }
  const zero = map
    .split("\n")
    .map((line) => line.trim().split(/\s+/).map(Number))
    .find(([inside, , count]) => inside !== undefined && count !== undefined && inside <= 0 && 0 < inside + count);
  return zero === undefined || zero[1]! - zero[0]! === 0;
}

/** An id that neither /etc/passwd nor /etc/group names, so the sandbox's files and signals reach nobody's. */
function freeIdentity(): SandboxUser {
  const taken = new Set([...idsIn("/etc/passwd"), ...idsIn("/etc/group")]);
  for (let id = PREFERRED_ID; id >= LOWEST_ID; id--) if (!taken.has(id)) return { uid: id, gid: id, switched: true };
  throw new Error(
    `every id from ${LOWEST_ID} to ${PREFERRED_ID} is used in /etc/passwd or /etc/group: no unprivileged id is free for the sandbox`,
  );
}

/** The numeric ids (third field) of a passwd- or group-style file; empty when it cannot be read. */
function idsIn(path: string): number[] {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    return [];
  }
  return text
    .split("\n")
    .map((line) => Number(line.split(":")[2]))
    .filter(Number.isInteger);
}

/** The name the sandbox user has inside (`whoami`, `getpass.getuser()`, `ls -l`). */
export const SANDBOX_USER_NAME = "agent-tools-sandbox";

let accountFiles: { passwd: string; group: string } | undefined;

/**
 * The host's `/etc/passwd` and `/etc/group` with an entry for a switched sandbox user, so programs
 * that look their user up (`whoami`, `id -un`, Python's `getpass`) find one. Written once per process.
 */
export function sandboxAccountFiles(user: SandboxUser): { passwd: string; group: string } {
  if (accountFiles === undefined) {
    const read = (path: string) => {
      const text = readFileSync(path, "utf8");
      return text === "" || text.endsWith("\n") ? text : `${text}\n`;
    };
    const passwd = privateFile(
      "passwd",
      `${read("/etc/passwd")}${SANDBOX_USER_NAME}:x:${user.uid}:${user.gid}:Agent Tools sandbox:/nonexistent:/bin/sh\n`,
    );
    const group = privateFile("group", `${read("/etc/group")}${SANDBOX_USER_NAME}:x:${user.gid}:\n`);
    accountFiles = { passwd, group };
  }
  return accountFiles;
}

/** `text` in this user's private temp folder, named by its digest (written beside and renamed, so a reader never sees part). */
function privateFile(name: string, text: string): string {
  const path = join(privateTempFolder(), `${name}-${createHash("sha256").update(text).digest("hex").slice(0, 32)}`);
  const partial = `${path}.${process.pid}.partial`;
  writeFileSync(partial, text, { mode: 0o644 });
  renameSync(partial, path);
  return path;
}
