import { Option } from "commander";

/** `--cache-dir`: the SDK cache the command reads or changes, by default the one `AgentTools` uses (`resolveCacheDir`). */
export function cacheDirOption(): Option {
  return new Option("--cache-dir <dir>", "the SDK cache (default: $AGENT_TOOLS_CACHE_DIR or ~/.cache/agent-tools)");
}
