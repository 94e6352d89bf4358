import { homedir } from "node:os";
import { join, resolve } from "node:path";

/** `cacheDir` option, else `$AGENT_TOOLS_CACHE_DIR`, else `~/.cache/agent-tools`. */
export function resolveCacheDir(option?: string): string {
  return resolve(option ?? process.env.AGENT_TOOLS_CACHE_DIR ?? join(homedir(), ".cache", "agent-tools"));
}
