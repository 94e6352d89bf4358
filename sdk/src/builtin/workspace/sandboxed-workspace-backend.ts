import type { SandboxPlatform } from "../../sandbox/sandbox-platform.js";
import type { SandboxProfile } from "../../sandbox/sandbox-profile.js";
import type {
  BackendConfinement,
  BackgroundProcess,
  ExecOptions,
  ExecResult,
  FileStat,
  GlobOptions,
  WorkspaceBackend,
} from "./workspace-backend.js";

/** A profile, or how to make one when a process starts (so it sees the secrets of that moment). */
export type ProfileSource = Omit<SandboxProfile, "cwd"> | (() => Omit<SandboxProfile, "cwd">);

/**
 * A backend whose processes run in the OS sandbox under `profile` (the Bash tool's: the host
 * filesystem read-only, the working directories writable, secrets masked, a private /tmp, no
 * network unless allowed) with the profile's environment only. File operations are the agent's
 * own and pass through unchanged. With `confinement`, it says so to the tools (a
 * `SandboxedLocalWorkspace`'s backend), so the Bash tool adds no sandbox of its own.
 */
export class SandboxedWorkspaceBackend implements WorkspaceBackend {
  constructor(
    private readonly inner: WorkspaceBackend,
    private readonly platform: SandboxPlatform,
    private readonly profile: ProfileSource,
    readonly confinement?: BackendConfinement,
  ) {}

  get cwd(): string {
    return this.inner.cwd;
  }

  private wrap(argv: string[], cwd: string) {
    const profile = typeof this.profile === "function" ? this.profile() : this.profile;
    return this.platform.wrap({ ...profile, cwd }, argv);
  }

  async exec(argv: string[], options: ExecOptions): Promise<ExecResult> {
    const launch = this.wrap(argv, options.cwd);
    try {
      return await this.inner.exec([launch.command, ...launch.args], { ...options, env: launch.env });
    } finally {
      launch.release();
    }
  }

  startBackground(argv: string[], options: Pick<ExecOptions, "cwd" | "env">): Promise<BackgroundProcess> {
    const launch = this.wrap(argv, options.cwd);
    return this.inner.startBackground([launch.command, ...launch.args], { ...options, env: launch.env });
  }

  readFile(path: string): Promise<Buffer> {
    return this.inner.readFile(path);
  }

  writeFile(path: string, data: string | Uint8Array): Promise<void> {
    return this.inner.writeFile(path, data);
  }

  stat(path: string): Promise<FileStat | undefined> {
    return this.inner.stat(path);
  }

  glob(pattern: string, options: GlobOptions): Promise<string[]> {
    return this.inner.glob(pattern, options);
  }

  grep(args: string[], options: ExecOptions): Promise<ExecResult> {
    return this.inner.grep(args, options);
  }
}
