import { existsSync } from "node:fs";
import { constants } from "node:os";
import { dirname, isAbsolute } from "node:path";
import type { SandboxProfile } from "./sandbox-profile.js";

/** What is known about a sandboxed tool's failure: its Python exception, or how its process ended. */
export interface ToolFailure {
  /** The Python exception type (`PermissionError`, `MemoryError`, ...). */
  type?: string | undefined;
  message: string;
  traceback?: string | undefined;
  /** errno of the OSError behind the failure, and the path it was about. */
  errno?: number | undefined;
  filename?: string | undefined;
  /** The signal that ended the process (`SIGXCPU`, ...). */
  signal?: string | null | undefined;
  stderr?: string | undefined;
}

export interface DenialContext {
  toolId: string;
  profile: SandboxProfile;
  /** Names in the agent's own environment: a KeyError on one of these that was not passed is a denial. */
  agentEnvNames: ReadonlySet<string>;
  /** Capability ids the tool declared (granted or not), to say which need a grant and which a declaration. */
  declared: ReadonlySet<string>;
}

export interface Denial {
  capability: string;
  fix: string;
}

const E = constants.errno;
const PROXY_REFUSAL = /agent-tools sandbox: (network:[^\s]+) not granted/;

/**
 * Which capability, if any, a failure shows the tool lacked. Rules run in order and the first
 * match wins; each names what the sandbox withheld and how to grant or raise it. A failure the
 * sandbox did not cause (a missing file inside the tool's own folder, a bug) is not a denial.
 */
export function denialOf(failure: ToolFailure, context: DenialContext): Denial | undefined {
  const { toolId } = context;
  const text = `${failure.message}\n${failure.stderr ?? ""}`;
  const grant = (capability: string, declaredHow: string): Denial => ({
    capability,
    fix: context.declared.has(`${toolId}:${capability}`)
      ? `It is declared but was not granted: allow the rule Capability(${toolId}:${capability}).`
      : `A tool that needs it must declare it in spec.json (${declaredHow}) and be granted the rule Capability(${toolId}:${capability}).`,
  });
  const limit = (name: string): Denial => ({
    capability: `limits.${name}`,
    fix: `Raise sandboxLimits.${name} in new AgentTools({ sandboxLimits }) if the tool really needs more.`,
  });

  const proxied = PROXY_REFUSAL.exec(text);
  if (proxied) return grant(proxied[1]!, `tool_capabilities.network`);
  if (failure.signal === "SIGXCPU") return limit("cpuSeconds");
  if (failure.signal === "SIGXFSZ" || failure.errno === E.EFBIG) return limit("fileSizeBytes");
  if (failure.type === "MemoryError" || failure.errno === E.ENOMEM) return limit("memoryBytes");
  if (failure.errno === E.EMFILE) return limit("openFiles");
  if (failure.errno === E.EAGAIN && /fork|_execute_child|spawn|Thread/.test(`${failure.traceback ?? ""}${failure.message}`))
    return limit("processes");
  if (failure.type === "ProcessLookupError" || (failure.errno === E.ESRCH && /kill/.test(failure.traceback ?? ""))) {
    return {
      capability: "process:signal",
      fix: "A sandboxed tool sees only its own processes and cannot signal the agent or any other process.",
    };
  }
  // The system-call filter (docs/sandbox.md#system-call-filter): a foreign-ABI call kills, a unix socket is refused.
  if (failure.signal === "SIGSYS") {
    return {
      capability: "syscall",
      fix:
        "The sandbox's system-call filter stopped a call it never allows (a 32-bit " +
        "or x32 system call); build the tool for this machine's own architecture.",
    };
  }
  if (failure.errno === E.EPERM && failure.filename === undefined && /\bsocket\b/.test(`${failure.traceback ?? ""}${failure.message}`)) {
    if (context.profile.network.kind !== "proxy")
      return grant("network", `tool_capabilities.network, e.g. ["api.example.com:443"]; unix sockets come with it`);
  }
  if (
    failure.errno === E.ECONNREFUSED ||
    failure.errno === E.ENETUNREACH ||
    failure.errno === E.EHOSTUNREACH ||
    failure.type === "gaierror"
  ) {
    if (context.profile.network.kind === "none") return grant("network", `tool_capabilities.network, e.g. ["api.example.com:443"]`);
  }
  if (
    failure.filename !== undefined &&
    (failure.errno === E.EROFS || failure.errno === E.EACCES || failure.errno === E.EPERM || failure.errno === E.ENOENT)
  ) {
    const denied = hiddenPathAccess(failure.filename, failure.errno);
    if (denied !== undefined) {
      const capability = `filesystem:${failure.filename}:${denied}`;
      const fix = grant(capability, `tool_capabilities.filesystem, e.g. [{"path": "workspace", "access": "${denied}"}]`);
      return { capability, fix: `${fix.fix} A tool keeps its own files under $AGENT_TOOLS_STATE_DIR, which is writable.` };
    }
  }
  if (failure.type === "KeyError") {
    const name = /^'([A-Za-z_][A-Za-z0-9_]*)'$/.exec(failure.message.trim())?.[1];
    if (name !== undefined && context.agentEnvNames.has(name) && context.profile.env[name] === undefined)
      return grant(`env:${name}`, `tool_capabilities.env`);
  }
  return undefined;
}

/**
 * Whether a filesystem failure was the sandbox's doing, and for which access. A read-only mount
 * (EROFS) or a refusal is; a missing file is only when it (or, for a new file, its folder)
 * exists outside the sandbox, so a tool's own missing file is not blamed on the sandbox.
 */
function hiddenPathAccess(path: string, errno: number): "read" | "write" | undefined {
  if (errno === E.EROFS) return "write";
  if (errno !== E.ENOENT || !isAbsolute(path)) return "read";
  if (existsSync(path)) return "read";
  return existsSync(dirname(path)) ? "write" : undefined;
}
