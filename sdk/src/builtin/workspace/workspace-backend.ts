/**
 * Where the built-in tools act: the local machine by default, the OS sandbox, a container or a
 * remote sandbox (docs/workspaces.md). Tools never touch `fs` or `child_process` directly, only a
 * backend; a `Workspace` hands one out.
 */
export interface ExecOptions {
  cwd: string;
  timeoutMs: number;
  /** Aborting kills the whole process group. */
  signal?: AbortSignal | undefined;
  /** Output beyond this many bytes per stream is dropped (the process keeps running). */
  maxOutputBytes?: number | undefined;
  /** The complete environment of the process (a sandbox's scrubbed one); default the agent's. */
  env?: Record<string, string> | undefined;
}

export interface ExecResult {
  /** -1 when the process timed out or could not start. */
  exitCode: number;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  aborted: boolean;
}

export interface FileStat {
  size: number;
  mtimeMs: number;
  isFile: boolean;
  isDirectory: boolean;
}

export interface GlobOptions {
  cwd: string;
  /** Patterns of paths to leave out (e.g. `**\/.git/**`). */
  ignore: string[];
}

export interface BackgroundProcess {
  pid: number;
  /** Where stdout and stderr go. */
  logPath: string;
}

/**
 * How a backend confines the processes it runs, when it does so itself: the OS sandbox of a
 * `SandboxedLocalWorkspace`, a container, a remote machine. The Bash tool then runs commands through
 * the backend as they are, without its own sandbox around them (docs/workspaces.md#bash-in-a-workspace).
 */
export interface BackendConfinement {
  /** Where commands run, for messages: "the OS sandbox (bubblewrap)", "Docker container 3f2a1b9c0d4e". */
  readonly description: string;
  /** The only folders of the agent's machine its processes can change (their own private space aside). */
  readonly writableDirectories: readonly string[];
  /** Whether its processes reach a network. */
  readonly network: boolean;
}

export interface WorkspaceBackend {
  /** The directory tools use when given none (a workspace's project folder). */
  readonly cwd: string;
  /** Set when the backend confines its processes itself; undefined: they run on the agent's machine as the agent. */
  readonly confinement?: BackendConfinement | undefined;
  /** Runs argv without a shell, in its own process group. */
  exec(argv: string[], options: ExecOptions): Promise<ExecResult>;
  /** Starts argv detached, output to a log file; returns at once. */
  startBackground(argv: string[], options: Pick<ExecOptions, "cwd" | "env">): Promise<BackgroundProcess>;
  readFile(path: string): Promise<Buffer>;
  /** Writes the file, creating missing parent directories. */
  writeFile(path: string, data: string | Uint8Array): Promise<void>;
  /** Undefined when nothing exists at `path`. */
  stat(path: string): Promise<FileStat | undefined>;
  /** Absolute paths of files matching `pattern` under `options.cwd`. */
  glob(pattern: string, options: GlobOptions): Promise<string[]>;
  /** Runs ripgrep with `args` in `cwd`. */
  grep(args: string[], options: ExecOptions): Promise<ExecResult>;
}
