import { createHash, randomUUID } from "node:crypto";
import { mkdir, rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import { pathExists } from "../../cache/path-exists.js";
import type { ToolCache } from "../../cache/tool-cache.js";
import { renameIntoPlace } from "../../rename-into-place.js";
import type { InstallIsolation } from "../../sandbox/tool-sandboxes.js";
import { ToolEnvironmentError } from "../runtime-errors.js";
import { installFailure } from "./install-failure.js";
import { runInstallStep, type InstallPlace } from "./install-step.js";
import { readPipSources } from "./pip-sources.js";
import type { PythonInterpreter } from "./python-interpreter.js";
import { PIP_SCRIPT_PATH } from "./worker-script.js";

/** How requirements are installed: the SDK user's explicit pip settings (`AgentToolsOptions`). */
export interface InstallSettings {
  /** Extra `pip install` arguments, e.g. `["--no-index", "--find-links", "/wheels"]`. */
  pipArgs: string[];
  /** Extra environment for pip only, e.g. `{ PIP_INDEX_URL: mirror }`. */
  pipEnv: Record<string, string>;
  /** `host:port` pairs a sandboxed install may reach besides those its index settings name. */
  pipHosts: string[];
  /** Let pip build source distributions (running their build code, inside the install sandbox). */
  allowSourceBuilds: boolean;
  timeoutMs: number;
}

export interface RequirementsEnvironmentOptions {
  toolId: string;
  cache: ToolCache;
  interpreter: PythonInterpreter;
  /** The tool's `code/`, holding `requirements.txt`. */
  codeDir: string;
  requirements: string;
  install: InstallSettings;
}

/** A requirements venv: where it is (known before it exists), and how to build it. */
export interface RequirementsEnvironment {
  dir: string;
  python: string;
  /** Builds it unless it exists; concurrent calls for the same venv share one build. */
  ensure(isolation: InstallIsolation): Promise<void>;
}

/** True when a requirements file names anything (comments and blank lines do not count). */
export function hasRequirements(text: string): boolean {
  return requirementLines(text).length > 0;
}

/** A requirements file larger than this is refused unread: it is a list of package names. */
export const MAX_REQUIREMENTS_BYTES = 1024 * 1024;

const building = new Map<string, Promise<void>>();

/**
 * The virtual environment holding exactly a tool's requirements, never the agent's own: shared by
 * tools with the same interpreter, requirements and install settings, unless the requirements name
 * anything but packages (options, paths, URLs: `--find-links ./dist` means this tool's files),
 * which gives the tool's code folder a venv of its own. Nothing is installed until `ensure`, which
 * the runtime calls once the tool's definition and capabilities are approved
 * (docs/sandbox.md#dependency-installation).
 */
export function requirementsEnvironment(options: RequirementsEnvironmentOptions): RequirementsEnvironment {
  const { interpreter, install } = options;
  const ownFiles = requirementLines(options.requirements).some((line) => !PLAIN_REQUIREMENT.test(line));
  const settings = [install.pipArgs, install.pipEnv, install.pipHosts, install.allowSourceBuilds];
  const key = createHash("sha256")
    .update(JSON.stringify([interpreter.executable, interpreter.version, options.requirements, settings, ownFiles ? options.codeDir : ""]))
    .digest("hex")
    .slice(0, 32);
  const dir = options.cache.venvPath(key);
  const python = join(dir, "bin", "python");
  return {
    dir,
    python,
    async ensure(isolation) {
      if (await pathExists(python)) return;
      let pending = building.get(dir);
      if (pending === undefined) {
        pending = build(dir, options, isolation).finally(() => building.delete(dir));
        building.set(dir, pending);
      }
      await pending;
    },
  };
}

/** A line naming one package by name, with optional extras, versions and markers: nothing of the tool's own. */
const PLAIN_REQUIREMENT = /^[A-Za-z0-9][A-Za-z0-9._-]*\s*(\[[A-Za-z0-9._,\s-]*\])?\s*([<>=!~][^;@/\\]*)?(;[^@]*)?$/;

function requirementLines(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.replace(/(^|\s)#.*/, "").trim())
    .filter((line) => line !== "");
}

/**
 * `python -m venv --without-pip` (0.1 s instead of ~6 s with ensurepip), then the host
 * interpreter's pip run by the venv's python through agent_tools_pip.py: both in a sandbox of
 * their own, in a temp folder renamed into place when complete.
 */
async function build(venv: string, options: RequirementsEnvironmentOptions, isolation: InstallIsolation): Promise<void> {
  const { interpreter, install, toolId } = options;
  if (interpreter.pipRoot === null) {
    throw new ToolEnvironmentError(
      toolId,
      `Python "${interpreter.executable}" has no pip, which installs code/requirements.txt: install ` +
        `it (python3 -m ensurepip, or the python3-pip package) or pass a pythonPath that has it.`,
    );
  }
  const sources = readPipSources(install.pipArgs, install.pipEnv);
  const temp = `${venv}.partial-${process.pid}-${randomUUID().slice(0, 8)}`;
  const place: InstallPlace = {
    venv: temp,
    cwd: options.codeDir,
    readOnly: [
      ...interpreter.prefixes,
      ...interpreter.sitePaths,
      dirname(interpreter.executable),
      interpreter.pipRoot,
      dirname(PIP_SCRIPT_PATH),
      options.codeDir,
      ...sources.paths,
    ],
    hosts: [...new Set([...sources.hosts, ...install.pipHosts])],
    pipEnv: sources.env,
    timeoutMs: install.timeoutMs,
  };
  const step = async (name: string, argv: string[], fetches: boolean) => {
    const run = await runInstallStep(argv, fetches, place, isolation);
    if (run.exitCode !== 0 || run.timedOut) {
      throw installFailure(run, {
        toolId,
        step: name,
        timeoutMs: install.timeoutMs,
        hosts: place.hosts,
        sandboxed: isolation.platform !== undefined,
      });
    }
  };
  await mkdir(temp, { recursive: true });
  try {
    await step("creating the virtual environment", [interpreter.executable, "-m", "venv", "--without-pip", temp], false);
    const builds = install.allowSourceBuilds ? "allow" : "refuse";
    const pip = [join(temp, "bin", "python"), "-B", PIP_SCRIPT_PATH, venv, interpreter.pipRoot, builds, "install"];
    const binaryOnly = install.allowSourceBuilds ? [] : ["--only-binary=:all:"];
    const requirements = join(options.codeDir, "requirements.txt");
    await step("installing code/requirements.txt", [...pip, "-r", requirements, ...binaryOnly, ...sources.args], true);
    await renameIntoPlace(temp, venv);
  } finally {
    await rm(temp, { recursive: true, force: true });
  }
}
