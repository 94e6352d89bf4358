import { readdir } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { ToolCache } from "../cache/tool-cache.js";
import type { ToolTree } from "../cache/tool-tree.js";
import { isPythonRuntime, type ToolRecord } from "../registry-client/tool-record.js";
import { BinaryToolRuntime } from "./binary/binary-runtime.js";
import { resolvePythonInterpreter } from "./python/python-interpreter.js";
import { PythonToolRuntime } from "./python/python-runtime.js";
import { hasRequirements, MAX_REQUIREMENTS_BYTES, requirementsEnvironment, type InstallSettings } from "./python/python-venv.js";
import { ToolLoadError } from "../tool-load-error.js";
import { ToolEnvironmentError } from "./runtime-errors.js";
import type { ToolLauncher } from "../sandbox/tool-launcher.js";
import type { InstallIsolation } from "../sandbox/tool-sandboxes.js";
import type { ToolOutputListener, ToolRuntime } from "./tool-runtime.js";
import { WORKER_SCRIPT_PATH } from "./python/worker-script.js";
import { findBeneath, readFileBeneath, readFileHeadBeneath } from "../tool-files.js";
import { ToolPlatformError } from "../tool-platform-error.js";
import { EXECUTABLE_HEAD_BYTES, executableFormat, executableMismatch } from "../tool-spec/executable-format.js";
import { hostPlatform, platformKey } from "../tool-spec/tool-platforms.js";

export interface RuntimeSettings {
  cache: ToolCache;
  pythonPath: string;
  /** How requirements are installed (pip's arguments, environment, hosts, source builds, timeout). */
  install: InstallSettings;
  callTimeoutMs: number;
  loadTimeoutMs: number;
  outputLimit: number;
  /** The largest output file a binary tool's result is read from, in bytes. */
  outputFileLimitBytes: number;
  onOutput: ToolOutputListener | undefined;
  idleTimeoutMs: number;
  /**
   * The launcher a tool's processes start through, decided on first use; `readOnly` lists what the
   * runtime needs to see (the tool's folder, the interpreter, the venv, the worker script).
   */
  launcherFor(record: ToolRecord, readOnly: string[]): () => Promise<ToolLauncher>;
  /** Whether a tool's requirements install in a sandbox of their own, decided when they are installed. */
  installIsolation(toolId: string): InstallIsolation;
}

/**
 * The runtime a record asks for: a Python worker (in a requirements venv if needed) or a binary.
 * Nothing runs yet, nothing is installed: a Python worker starts on the first call (or
 * `PythonToolRuntime.start()`), and installs its requirements first, once its launcher is decided.
 */
export async function startToolRuntime(record: ToolRecord, tree: ToolTree, settings: RuntimeSettings): Promise<ToolRuntime> {
  const toolId = record.tool_id;
  const common = { toolId, record, callTimeoutMs: settings.callTimeoutMs, outputLimit: settings.outputLimit, onOutput: settings.onOutput };
  if (!isPythonRuntime(record)) {
    const launcher = settings.launcherFor(record, [tree.toolDir]);
    return new BinaryToolRuntime({
      ...common,
      executable: await findExecutable(toolId, tree.codeDir),
      toolDir: tree.toolDir,
      launcher,
      outputFileLimitBytes: settings.outputFileLimitBytes,
      idleTimeoutMs: settings.idleTimeoutMs,
    });
  }
  const interpreter = await resolvePythonInterpreter(settings.pythonPath).catch((error: unknown) => {
    throw error instanceof ToolEnvironmentError ? new ToolEnvironmentError(toolId, error.message, error) : error;
  });
  const requirements = readFileBeneath(tree.codeDir, "requirements.txt", MAX_REQUIREMENTS_BYTES, { toolId })?.toString("utf8") ?? "";
  const environment = hasRequirements(requirements)
    ? requirementsEnvironment({
        toolId,
        cache: settings.cache,
        interpreter,
        codeDir: tree.codeDir,
        requirements,
        install: settings.install,
      })
    : undefined;
  const venvDir = environment === undefined ? [] : [environment.dir];
  const readOnly = [
    tree.toolDir,
    tree.codeDir,
    ...interpreter.prefixes,
    ...interpreter.sitePaths,
    dirname(interpreter.executable),
    ...venvDir,
    dirname(WORKER_SCRIPT_PATH),
  ];
  return new PythonToolRuntime({
    ...common,
    codeDir: tree.codeDir,
    loadTimeoutMs: settings.loadTimeoutMs,
    idleTimeoutMs: settings.idleTimeoutMs,
    python: environment?.python ?? interpreter.executable,
    hostInterpreter: environment === undefined,
    prepare: environment && (() => environment.ensure(settings.installIsolation(toolId))),
    hostSitePaths: interpreter.sitePaths,
    launcher: settings.launcherFor(record, [...new Set(readOnly)]),
  });
}

/** A binary tool runs "the first file in code/" (docs/authoring.md); here code/ must hold exactly one file, and it must be executable. */
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
  // A link may name the executable, but only one inside code/.
  if (only.isSymbolicLink() && findBeneath(codeDir, only.name, { toolId })?.kind !== "file")
    throw new ToolLoadError(toolId, `its executable code/${only.name} is a link to no regular file inside code/`);
  checkRunsHere(toolId, codeDir, only.name);
  return join(codeDir, only.name);
}

/**
 * A program for another OS or CPU would fail at its first call with a loader's or a shell's
 * garbled words (`1: ����: not found`): refuse it at `add`, saying what it is and what this host is.
 */
function checkRunsHere(toolId: string, codeDir: string, name: string): void {
  const head = readFileHeadBeneath(codeDir, name, EXECUTABLE_HEAD_BYTES, { toolId });
  if (head === undefined) return;
  const host = hostPlatform();
  const mismatch = executableMismatch(executableFormat(head), host);
  if (mismatch !== undefined)
    throw new ToolPlatformError(
      toolId,
      `its executable code/${name} cannot run here: ${mismatch}. Add a build for ${platformKey(host)} to the tool (tool_platforms).`,
      host,
    );
}
