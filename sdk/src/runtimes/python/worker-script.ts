import { fileURLToPath } from "node:url";

/**
 * The Python host script shipped in the package's `python/` folder. Resolved from this module's own
 * location, which is `src/runtimes/python/` in the repository and `dist/runtimes/python/` when built,
 * both three levels below the package root.
 */
export const WORKER_SCRIPT_PATH = fileURLToPath(new URL("../../../python/agent_tools_worker.py", import.meta.url));
