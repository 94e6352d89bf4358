import { ToolEnvironmentError } from "../runtime-errors.js";
import { runProcess } from "../run-process.js";

export interface PythonInterpreter {
  /** The real interpreter binary (never a pyenv/asdf shim, which costs ~150 ms per spawn). */
  executable: string;
  version: string;
  /** The interpreter's own site-packages, made importable for tools without requirements. */
  sitePaths: string[];
  /** Where the interpreter and its standard library live (a sandbox binds these read-only). */
  prefixes: string[];
  /** The folder holding the interpreter's `pip` package (what requirements are installed with), or null without pip. */
  pipRoot: string | null;
}

const PROBE = [
  "import importlib.util, json, os, sys, sysconfig",
  "paths = sysconfig.get_paths()",
  "pip = importlib.util.find_spec('pip')",
  "print(json.dumps({'executable': sys.executable, 'version': sys.version.split()[0],",
  "  'sitePaths': list(dict.fromkeys([paths['purelib'], paths['platlib']])),",
  "  'prefixes': list(dict.fromkeys([sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix])),",
  "  'pipRoot': os.path.dirname(os.path.dirname(pip.origin)) if pip and pip.origin else None}))",
].join("\n");

const resolved = new Map<string, Promise<PythonInterpreter>>();

/** Asks `command` (default `python3` on PATH) for its real executable, once per process. */
export function resolvePythonInterpreter(command: string): Promise<PythonInterpreter> {
  let pending = resolved.get(command);
  if (pending === undefined) {
    pending = probe(command);
    resolved.set(command, pending);
    pending.catch(() => resolved.delete(command)); // a failed probe may succeed later (e.g. after install)
  }
  return pending;
}

async function probe(command: string): Promise<PythonInterpreter> {
  const hint = "Install Python 3 or pass the interpreter as the pythonPath option.";
  let run: Awaited<ReturnType<typeof runProcess>>;
  try {
    run = await runProcess(command, ["-c", PROBE], { timeoutMs: 30_000 });
  } catch (error) {
    throw new ToolEnvironmentError(undefined, `cannot start Python interpreter "${command}": ${String(error)}. ${hint}`, error);
  }
  if (run.exitCode !== 0) {
    throw new ToolEnvironmentError(
      undefined,
      `Python interpreter "${command}" failed (exit ${run.exitCode}): ${run.stderr.trim()}. ${hint}`,
    );
  }
  return JSON.parse(run.stdout) as PythonInterpreter;
}
