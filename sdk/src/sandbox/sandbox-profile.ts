import type { ResourceLimits } from "./resource-limits.js";

/**
 * Where a sandboxed process may reach the network: nowhere (a network namespace holding only
 * `lo`), the host's network as it is (the Bash tool with network allowed), or only through the
 * filtering proxy listening on `proxySocket` outside the sandbox (per-host grants).
 */
export type SandboxNetwork = { kind: "none" } | { kind: "host" } | { kind: "proxy"; proxySocket: string };

/** A host path a sandboxed process must not read (docs/sandbox.md#secrets-hidden). */
export interface HiddenPath {
  /** Absolute host path. */
  path: string;
  /** What the path names; the platform masks what it finds there after resolving links. */
  kind: "file" | "directory";
}

/**
 * What one sandboxed process may see and do, independent of the platform that enforces it.
 * Paths are absolute host paths, bound at the same path inside, so messages and files agree.
 */
export interface SandboxProfile {
  /**
   * `system`: only the system directories (`/usr`, the libraries, a short list of `/etc` files)
   * are visible, read-only; no home directory. `host`: the whole host filesystem, read-only (the
   * Bash tool's profile).
   */
  base: "system" | "host";
  /** Visible read-only (the tool's folder, the Python interpreter and its venv). Missing ones are skipped. */
  readOnly: string[];
  /** Visible and writable (a tool's state folder, the Bash tool's working directories). */
  writable: string[];
  network: SandboxNetwork;
  /**
   * Masked over everything bound above it: a directory shows empty and read-only, a file reads
   * nothing (secrets; the proxies' socket folder, inside which only the profile's own
   * `proxySocket` is bound). Links are resolved first, so the mask lands where a reader would
   * arrive; paths that do not exist are skipped. Default none.
   */
  hidden?: readonly HiddenPath[] | undefined;
  /** The complete environment of the process: nothing else is inherited. */
  env: Record<string, string>;
  cwd: string;
  /** Kernel limits for the process and everything it starts; undefined = none. */
  limits?: ResourceLimits | undefined;
  /**
   * Descriptors above 2 the program is handed (a Python worker's request and reply pipes). Every
   * other descriptor is closed before the sandbox starts, whatever the agent holds open.
   */
  passFds?: readonly number[] | undefined;
}

/** How to start a program under a profile: the command line to spawn instead of the program itself. */
export interface SandboxedCommand {
  command: string;
  args: string[];
  env: Record<string, string>;
  /** The environment the program itself starts with (`env` may only carry it to the sandbox). */
  programEnv: Readonly<Record<string, string>>;
  /** Frees what the launch needed (its cgroups); call once the process has exited. */
  release(): void;
  /** True when the kernel killed one of its processes for passing `limits.totalMemoryBytes`. */
  outOfMemory(): boolean;
}
