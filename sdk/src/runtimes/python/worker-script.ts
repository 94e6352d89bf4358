import { fileURLToPath } from "node:url";

/**
 * The Python scripts shipped in the package's `python/` folder. Resolved from this module's own
 * location, which is `src/runtimes/python/` in the repository and `dist/runtimes/python/` when built,
 * both three levels below the package root.
 */
export const WORKER_SCRIPT_PATH = fileURLToPath(new URL("../../../python/agent_tools_worker.py", import.meta.url));

/** Runs pip for a requirements venv inside the install sandbox (docs/sandbox.md#dependency-installation). */
export const PIP_SCRIPT_PATH = fileURLToPath(new URL("../../../python/agent_tools_pip.py", import.meta.url));
