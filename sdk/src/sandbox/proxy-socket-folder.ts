import { chmod, lstat, mkdir, mkdtemp } from "node:fs/promises";
import { join } from "node:path";
import { SandboxUnavailableError } from "./sandbox-errors.js";

/** Unix socket paths are at most 107 bytes on Linux (`sun_path` holds 108 with its NUL). */
const MAX_SOCKET_PATH_BYTES = 107;
const SOCKET_NAME = "proxy.sock";
const WHAT = "Registry tools granted network hosts";

/**
 * Makes `root` (the SDK's proxy-sockets folder under its cache, `<cacheDir>/proxies`) a private
 * folder of this user (0700, a real folder, not a link another user planted), so that every
 * sandbox can hide it whole (docs/sandbox.md, "Network"). Called before any sandbox starts, so the
 * folder never appears inside a running sandbox later.
 */
export async function ensureProxySocketsRoot(root: string): Promise<void> {
  await mkdir(root, { recursive: true, mode: 0o700 });
  const info = await lstat(root);
  const uid = process.getuid?.();
  if (!info.isDirectory() || (uid !== undefined && info.uid !== uid)) {
    throw new SandboxUnavailableError(
      WHAT,
      `${root} is ${info.isSymbolicLink() ? "a symbolic link" : info.isDirectory() ? `a folder of uid ${info.uid}` : "not a folder"}, ` +
        `not a private folder of this user`,
      `remove ${root}; the SDK creates it again, private (mode 0700)`,
    );
  }
  if ((info.mode & 0o077) !== 0) await chmod(root, 0o700);
}

/**
 * A fresh private folder (0700, an unpredictable name) inside `root` for one proxy's socket, and
 * the socket's path there. The folder holds nothing else; the proxy removes it when it closes.
 */
export async function createProxySocketPath(root: string): Promise<{ folder: string; socketPath: string }> {
  await ensureProxySocketsRoot(root);
  const socketPath = join(root, "p-XXXXXX", SOCKET_NAME);
  if (Buffer.byteLength(socketPath) > MAX_SOCKET_PATH_BYTES) {
    throw new SandboxUnavailableError(
      WHAT,
      `the proxy's socket path ${socketPath} would be ${Buffer.byteLength(socketPath)} ` +
        `bytes, over the ${MAX_SOCKET_PATH_BYTES} a unix socket path may have`,
      "choose a shorter cacheDir (new AgentTools({ cacheDir }) or AGENT_TOOLS_CACHE_DIR)",
    );
  }
  const folder = await mkdtemp(join(root, "p-"));
  return { folder, socketPath: join(folder, SOCKET_NAME) };
}
