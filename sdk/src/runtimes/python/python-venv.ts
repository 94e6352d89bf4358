import { createHash, randomUUID } from "node:crypto";
import { readdir, readFile, rm, writeFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { pathExists } from "../../cache/path-exists.js";
import { renameIntoPlace } from "../../rename-into-place.js";
import type { ToolCache } from "../../cache/tool-cache.js";
import { ToolEnvironmentError } from "../runtime-errors.js";
import { runProcess } from "../run-process.js";
import { readFileBeneath } from "../../tool-files.js";
import type { PythonInterpreter } from "./python-interpreter.js";

export interface RequirementsEnvironmentOptions {
  toolId: string;
  cache: ToolCache;
  interpreter: PythonInterpreter;
  requirementsFile: string;
  /** Extra `pip install` arguments, e.g. `["--no-index", "--find-links", "/wheels"]`. */
  pipArgs: string[];
  /** Extra environment for pip only, e.g. `{ PIP_CONFIG_FILE: "/dev/null" }`. */
  pipEnv: Record<string, string>;
  timeoutMs: number;
}

/** True when a requirements file names anything (comments and blank lines do not count). */
export function hasRequirements(text: string): boolean {
  return text.split(/\r?\n/).some((line) => line.replace(/#.*/, "").trim() !== "");
}

/** A requirements file larger than this is refused unread: it is a list of package names. */
export const MAX_REQUIREMENTS_BYTES = 1024 * 1024;

const building = new Map<string, Promise<void>>();

/**
 * The Python executable of a virtual environment holding exactly the tool's requirements, shared by
 * every tool with the same interpreter and requirements, and never the agent's own environment.
 * Built as `venv --without-pip` (0.1 s instead of ~6 s with ensurepip) filled by the host's
 * `pip --python`, in a temp folder renamed into place when complete.
 */
export async function ensureRequirementsEnvironment(options: RequirementsEnvironmentOptions): Promise<string> {
  const folder = dirname(options.requirementsFile);
  const requirements =
    readFileBeneath(folder, basename(options.requirementsFile), MAX_REQUIREMENTS_BYTES, { toolId: options.toolId })?.toString("utf8") ?? "";
  const key = createHash("sha256")
    .update(`${options.interpreter.executable}\0${options.interpreter.version}\0${requirements}`)
    .digest("hex")
    .slice(0, 32);
  const venv = options.cache.venvPath(key);
  const python = join(venv, "bin", "python");
  if (await pathExists(python)) return python;
  let pending = building.get(venv);
  if (pending === undefined) {
    pending = build(venv, options).finally(() => building.delete(venv));
    building.set(venv, pending);
  }
  await pending;
  return python;
}

async function build(venv: string, options: RequirementsEnvironmentOptions): Promise<void> {
  const temp = `${venv}.partial-${process.pid}-${randomUUID().slice(0, 8)}`;
  const python = options.interpreter.executable;
  try {
    await run(options, python, ["-m", "venv", "--without-pip", temp], {}, "creating the virtual environment");
    const install = ["-m", "pip", "--python", join(temp, "bin", "python"), "install", "--disable-pip-version-check"];
    await run(
      options,
      python,
      [...install, "-r", options.requirementsFile, ...options.pipArgs],
      options.pipEnv,
      "installing code/requirements.txt",
    );
    await repointScripts(temp, venv);
    await renameIntoPlace(temp, venv);
  } finally {
    await rm(temp, { recursive: true, force: true });
  }
}

async function run(
  options: RequirementsEnvironmentOptions,
  command: string,
  args: string[],
  env: Record<string, string>,
  step: string,
): Promise<void> {
  const result = await runProcess(command, args, { env: { ...process.env, ...env }, timeoutMs: options.timeoutMs });
  if (result.exitCode === 0) return;
  const why = result.timedOut ? `timed out after ${options.timeoutMs} ms` : `exit ${result.exitCode ?? result.signal}`;
  const output = `${result.stderr.trim() || result.stdout.trim()}`.slice(-3000);
  throw new ToolEnvironmentError(
    options.toolId,
    `${step} failed (${why}): ${output}. Check the requirements and the pipArgs option (index URL, --find-links for offline wheels).`,
  );
}

/** Console scripts name their venv's python in the shebang; point them at the final folder, not the temp one. */
async function repointScripts(temp: string, final: string): Promise<void> {
  const bin = join(temp, "bin");
  for (const entry of await readdir(bin, { withFileTypes: true })) {
    if (!entry.isFile()) continue; // the python symlinks
    const path = join(bin, entry.name);
    const text = await readFile(path, "utf8");
    if (text.startsWith(`#!${temp}/`)) await writeFile(path, `#!${final}/${text.slice(temp.length + 3)}`);
  }
}
