import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import type { ToolCache } from "../cache/tool-cache.js";
import type { ToolTree } from "../cache/tool-tree.js";
import { isPythonRuntime, type ToolRecord } from "../registry-client/tool-record.js";
import { BinaryToolRuntime } from "./binary/binary-runtime.js";
import { resolvePythonInterpreter } from "./python/python-interpreter.js";
import { PythonToolRuntime } from "./python/python-runtime.js";
import { ensureRequirementsEnvironment, hasRequirements } from "./python/python-venv.js";
import { ToolEnvironmentError, ToolLoadError } from "./runtime-errors.js";
import type { ToolOutputListener, ToolRuntime } from "./tool-runtime.js";

export interface RuntimeSettings {
  cache: ToolCache;
  pythonPath: string;
  pipArgs: string[];
  pipEnv: Record<string, string>;
  callTimeoutMs: number;
  loadTimeoutMs: number;
  installTimeoutMs: number;
  outputLimit: number;
  onOutput: ToolOutputListener | undefined;
}

/** Starts the runtime a record asks for: a Python worker (in a requirements venv if needed) or a binary. */
export async function startToolRuntime(record: ToolRecord, tree: ToolTree, settings: RuntimeSettings): Promise<ToolRuntime> {
  const toolId = record.tool_id;
  const common = { toolId, record, callTimeoutMs: settings.callTimeoutMs, outputLimit: settings.outputLimit, onOutput: settings.onOutput };
  if (!isPythonRuntime(record)) {
    return new BinaryToolRuntime({ ...common, executable: await findExecutable(toolId, tree.codeDir), toolDir: tree.toolDir });
  }
  const interpreter = await resolvePythonInterpreter(settings.pythonPath).catch((error: unknown) => {
    throw error instanceof ToolEnvironmentError ? new ToolEnvironmentError(toolId, error.message, error) : error;
  });
  const requirementsFile = join(tree.codeDir, "requirements.txt");
  const requirements = await readFile(requirementsFile, "utf8").catch(() => "");
  const venvPython = hasRequirements(requirements)
    ? await ensureRequirementsEnvironment({
        toolId,
        cache: settings.cache,
        interpreter,
        requirementsFile,
        pipArgs: settings.pipArgs,
        pipEnv: settings.pipEnv,
        timeoutMs: settings.installTimeoutMs,
      })
    : undefined;
  return PythonToolRuntime.start({
    ...common,
    codeDir: tree.codeDir,
    loadTimeoutMs: settings.loadTimeoutMs,
    python: venvPython ?? interpreter.executable,
    hostInterpreter: venvPython === undefined,
    hostSitePaths: interpreter.sitePaths,
  });
}

/** The seed runs "the first file in code/"; here code/ must hold exactly one file, and it must be executable. */
async function findExecutable(toolId: string, codeDir: string): Promise<string> {
  const entries = await readdir(codeDir, { withFileTypes: true }).catch((error: unknown) => {
    throw new ToolLoadError(toolId, `its code folder ${codeDir} cannot be read (${(error as Error).message})`, { cause: error });
  });
  const files = entries.filter((entry) => entry.isFile() || entry.isSymbolicLink());
  const [only] = files;
  if (only === undefined || files.length > 1) {
    const found = files.length === 0 ? "no file" : files.map((entry) => entry.name).join(", ");
    throw new ToolLoadError(toolId, `a binary tool's code/ must hold exactly one executable, found ${found}`);
  }
  return join(codeDir, only.name);
}
