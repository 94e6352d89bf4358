import { formatHost, parseGrantedHost, parseHostAndPort, type GrantedHost, type Parsed } from "./network-target.js";

/**
 * The capability manifest a tool declares in `spec.json` (`tool_capabilities`): what it needs
 * beyond the default sandbox profile (docs/sandbox.md, "Capability manifest"). The registry
 * validates it at upload with `toolCapabilityProblems`; the SDK reads it with `readToolCapabilities`
 * and asks the permission engine for each capability before granting it.
 *
 * @example
 * { "network": ["api.example.com:443"], "env": ["EXAMPLE_API_KEY"],
 *   "filesystem": [{ "path": "workspace", "access": "read" }] }
 */
export interface ToolCapabilities {
  /** Hosts reached through the sandbox's filtering proxy: `host:port`, or `host` for ports 80 and 443. */
  network: string[];
  /** Names of the agent's environment variables the tool receives. */
  env: string[];
  /** Folders the tool may read or write: `workspace` (the agent's working directories) or an absolute path. */
  filesystem: FilesystemCapability[];
}

export interface FilesystemCapability {
  path: string;
  access: "read" | "write";
}

export const MAX_CAPABILITIES_PER_KIND = 32;

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;
/** Set by the sandbox itself: a grant could not change them, and asking for them is a mistake. */
const SANDBOX_OWNED_ENV = /^(PATH|HOME|TMPDIR|PWD|LD_.*|PYTHON.*|AGENT_TOOLS_.*|(HTTPS?|ALL|NO)_PROXY)$/i;
const KINDS = ["network", "env", "filesystem"];

/** An empty manifest: what a tool without `tool_capabilities` gets (the default profile). */
export function noCapabilities(): ToolCapabilities {
  return { network: [], env: [], filesystem: [] };
}

/**
 * Every problem with a `tool_capabilities` value, one sentence each, so an author fixes all at
 * once; empty when it is valid. `undefined` and `null` are valid (no capabilities).
 */
export function toolCapabilityProblems(value: unknown): string[] {
  if (value === undefined || value === null) return [];
  if (!isObject(value))
    return [`tool_capabilities must be an object like {"network": ["api.example.com:443"]}, but it is ${typeName(value)}`];
  const problems: string[] = [];
  const unknown = Object.keys(value).filter((key) => !KINDS.includes(key));
  if (unknown.length > 0) problems.push(`tool_capabilities has unknown keys ${unknown.join(", ")} (known: ${KINDS.join(", ")})`);
  problems.push(
    ...listProblems(value.network, "network", (item) =>
      typeof item === "string" ? networkProblem(item) : 'must be a string such as "api.example.com:443"',
    ),
  );
  problems.push(
    ...listProblems(value.env, "env", (item) => (typeof item === "string" ? envProblem(item) : "must be an environment variable name")),
  );
  problems.push(...listProblems(value.filesystem, "filesystem", filesystemProblem));
  return problems;
}

/** The manifest of a record; throws a `TypeError` listing the problems when it is malformed. */
export function readToolCapabilities(value: unknown): ToolCapabilities {
  const problems = toolCapabilityProblems(value);
  if (problems.length > 0) throw new TypeError(`${problems.join("; ")}.`);
  if (!isObject(value)) return noCapabilities();
  return {
    network: [...new Set(((value.network as string[] | undefined) ?? []).map(canonicalNetworkEntry))],
    env: [...new Set((value.env as string[] | undefined) ?? [])],
    filesystem: ((value.filesystem as FilesystemCapability[] | undefined) ?? []).map(({ path, access }) => ({
      path: canonicalCapabilityPath(path),
      access,
    })),
  };
}

/** `host:port` → its parts, the host in canonical text without brackets; `host` alone means ports 80 and 443. */
export function networkTargets(entry: string): { host: string; ports: number[] } {
  const { host, ports } = grantedTarget(entry);
  return { host: formatHost(host).replace(/^\[|\]$/g, ""), ports };
}

/** A `tool_capabilities.network` entry parsed as the proxy parses requests; throws a `TypeError` naming the problem. */
export function grantedTarget(entry: string): { host: GrantedHost; ports: number[] } {
  const parsed = parseNetworkEntry(entry);
  if (!parsed.ok) throw new TypeError(`tool_capabilities.network entry ${JSON.stringify(entry)}: ${parsed.reason}`);
  return parsed.value;
}

function parseNetworkEntry(entry: string): Parsed<{ host: GrantedHost; ports: number[] }> {
  return parseHostAndPort(entry, parseGrantedHost, [80, 443]);
}

/** The entry as the registry shows it and rules name it: canonical host (lower case, IPv6 compressed), the port as written. */
function canonicalNetworkEntry(entry: string): string {
  const { host, ports } = grantedTarget(entry);
  return ports.length === 1 ? `${formatHost(host)}:${ports[0]}` : formatHost(host);
}

function listProblems(value: unknown, kind: string, itemProblem: (item: unknown) => string | undefined): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) return [`tool_capabilities.${kind} must be a list, but it is ${typeName(value)}`];
  if (value.length > MAX_CAPABILITIES_PER_KIND)
    return [`tool_capabilities.${kind} lists ${value.length} entries; at most ${MAX_CAPABILITIES_PER_KIND} are allowed`];
  return value.flatMap((item, index) => {
    const problem = itemProblem(item);
    return problem === undefined ? [] : [`tool_capabilities.${kind}[${index}] ${problem}`];
  });
}

function networkProblem(entry: string): string | undefined {
  const parsed = parseNetworkEntry(entry);
  if (parsed.ok) return undefined;
  return (
    `(${JSON.stringify(entry)}) is refused: ${parsed.reason}. Write a host name, ` +
    `IPv4 address or [IPv6] address with an optional port, e.g. "api.example.com:443"`
  );
}

function envProblem(name: string): string | undefined {
  if (!ENV_NAME.test(name))
    return `(${JSON.stringify(name)}) is not an environment variable name (letters, digits and _, not starting with a digit)`;
  if (SANDBOX_OWNED_ENV.test(name)) return `(${name}) is set by the sandbox itself and cannot be granted`;
  return undefined;
}

function filesystemProblem(item: unknown): string | undefined {
  if (!isObject(item)) return `must be an object like {"path": "workspace", "access": "read"}, but it is ${typeName(item)}`;
  const { path, access } = item;
  const extra = Object.keys(item).filter((key) => key !== "path" && key !== "access");
  if (extra.length > 0) return `has unknown keys ${extra.join(", ")} (known: path, access)`;
  if (access !== "read" && access !== "write") return `access must be "read" or "write", but it is ${typeName(access)}`;
  if (typeof path !== "string" || !(path === "workspace" || (path.startsWith("/") && path.length <= 1024))) {
    return `path must be "workspace" (the agent's working directories) or an absolute path, but it is ${typeName(path)}`;
  }
  if (path === "workspace") return undefined;
  if ([...path].some((char) => char < " " || char === "\u007f")) return `path ${JSON.stringify(path)} holds a control character`;
  if (path.split("/").includes("..")) return `path ${JSON.stringify(path)} must not contain ".."`;
  const refused = refusedCapabilityPath(canonicalCapabilityPath(path));
  return refused === undefined ? undefined : `path ${JSON.stringify(path)} ${refused}; name the folder the tool needs`;
}

/**
 * A filesystem capability's path as one spelling (docs/sandbox.md#capability-paths): repeated
 * slashes, `.` segments and a trailing slash removed, so `//`, `/./` and `/data/` are `/`, `/` and
 * `/data`. `..` is refused before, never resolved here: the SDK resolves links on the host when
 * it grants the path.
 */
export function canonicalCapabilityPath(path: string): string {
  if (path === "workspace") return path;
  return `/${path
    .split("/")
    .filter((segment) => segment !== "" && segment !== ".")
    .join("/")}`;
}

/** Folders no tool is granted, by their canonical text; the SDK checks the real path again when it grants (`granted-paths.ts`). */
const REFUSED_PATHS: readonly { pattern: RegExp; reason: string }[] = [
  { pattern: /^\/$/, reason: "is the whole filesystem" },
  {
    pattern: /^\/(proc|sys|dev)(\/|$)/,
    reason: "is the kernel's view of processes, devices or shared memory (/proc, /sys, /dev), never a tool's",
  },
  { pattern: /^\/(home|Users)$/, reason: "holds every user's home folder" },
  { pattern: /^\/(home|Users)\/[^/]+$|^\/root$|^\/var\/root$/, reason: "is a user's home folder, with their keys and credentials" },
];

/** Why the canonical `path` is never granted, or undefined. */
export function refusedCapabilityPath(path: string): string | undefined {
  return REFUSED_PATHS.find((entry) => entry.pattern.test(path))?.reason;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function typeName(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "string") return `the string ${JSON.stringify(value.slice(0, 60))}`;
  return typeof value === "object" ? "an object" : `the ${typeof value} ${String(value)}`;
}
