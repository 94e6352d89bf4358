import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FilteringProxy } from "../../sandbox/network-proxy.js";
import type { SandboxProfile } from "../../sandbox/sandbox-profile.js";
import { PASSED_ENV, proxyEnvironment, SANDBOX_PATH } from "../../sandbox/tool-sandbox.js";
import type { InstallIsolation } from "../../sandbox/tool-sandboxes.js";
import { runProcess, type ProcessRun } from "../run-process.js";

/**
 * pip reads no configuration of the machine's or the agent's (pip.conf files, `PIP_*` variables):
 * only what the SDK user passed as pipArgs and pipEnv, which come after these and may override them.
 */
const PIP_DEFAULTS: Readonly<Record<string, string>> = {
  PIP_CONFIG_FILE: "/dev/null",
  PIP_NO_INPUT: "1",
  PIP_DISABLE_PIP_VERSION_CHECK: "1",
  PIP_ROOT_USER_ACTION: "ignore",
};

/** Where one install step runs: what it may read and write, and what it may reach. */
export interface InstallPlace {
  /** The venv being built: the only writable folder. */
  venv: string;
  /** pip runs here (the tool's `code/`, so its requirements' relative paths resolve inside it). */
  cwd: string;
  /** Visible read-only: the interpreter, pip, the installer script, the tool's code, local pip sources. */
  readOnly: string[];
  /** `host:port` pairs the fetching step may reach through the filtering proxy. */
  hosts: string[];
  /** pipEnv, as the SDK user set it. */
  pipEnv: Record<string, string>;
  timeoutMs: number;
}

/**
 * Runs one step of building a venv (`python -m venv`, then pip), inside a sandbox of its own when
 * `isolation` has a platform: the `system` base, `place.readOnly` read-only, only the venv
 * writable, a private `/tmp` that is also `$HOME`, and the network only through a filtering proxy
 * allowing `place.hosts` (none for a step that does not fetch). Without a platform it runs
 * unsandboxed, but with the same scrubbed environment and a private temporary `$HOME`.
 */
export async function runInstallStep(
  argv: string[],
  fetches: boolean,
  place: InstallPlace,
  isolation: InstallIsolation,
): Promise<ProcessRun> {
  const { platform } = isolation;
  if (platform === undefined) {
    const home = await mkdtemp(join(tmpdir(), "agent-tools-pip-home-"));
    try {
      const env = installEnvironment(process.env.PATH ?? SANDBOX_PATH, home, place.pipEnv);
      if (process.env.TMPDIR !== undefined) env.TMPDIR = process.env.TMPDIR;
      return await runProcess(argv[0]!, argv.slice(1), { cwd: place.cwd, env, timeoutMs: place.timeoutMs });
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  }
  const proxy =
    fetches && place.hosts.length > 0 ? await FilteringProxy.start(place.hosts, { socketsRoot: isolation.proxySocketsRoot }) : undefined;
  try {
    const env = { ...installEnvironment(SANDBOX_PATH, "/tmp", place.pipEnv), TMPDIR: "/tmp" };
    const profile: SandboxProfile = {
      base: "system",
      readOnly: place.readOnly,
      writable: [place.venv],
      hidden: [{ path: isolation.proxySocketsRoot, kind: "directory" }],
      network: proxy === undefined ? { kind: "none" } : { kind: "proxy", proxySocket: proxy.socketPath },
      env: proxy === undefined ? env : { ...env, ...proxyEnvironment(proxy) },
      cwd: place.cwd,
      limits: isolation.limits,
    };
    const command = platform.wrap(profile, argv);
    try {
      return await runProcess(command.command, command.args, { env: command.env, timeoutMs: place.timeoutMs });
    } finally {
      command.release();
    }
  } finally {
    await proxy?.close();
  }
}

/** `path` and `home`, the agent's locale (nothing else of its environment), pip's defaults, then the SDK user's pipEnv. */
function installEnvironment(path: string, home: string, pipEnv: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = { PATH: path, HOME: home };
  for (const name of PASSED_ENV) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  return { ...env, ...PIP_DEFAULTS, ...pipEnv };
}
