/**
 * A workspace whose files live in memory and whose commands run in a small shell written here: a
 * third-party backend written only against `WorkspaceBackend`, as an E2B-like adapter would be, to
 * show that the conformance suite and the built-in tools depend on the interface and nothing else.
 * `initialize` copies the project folder into memory; nothing is written back.
 *
 * The shell runs `bash -c SCRIPT` where SCRIPT is simple commands joined by `;` or `&&`, words
 * quoted with '' or "", and `>&2`, `> file`, `>> file` redirections; its commands are echo, cat,
 * pwd, sleep, true, false and exit. Its ripgrep takes the options the Grep tool sends, except
 * context lines and --type, which it refuses with rg's exit status for bad usage (2).
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, isAbsolute, join, relative, resolve } from "node:path";
import picomatch from "picomatch";
import {
  WorkspaceBase,
  type BackgroundProcess,
  type BackendConfinement,
  type ExecOptions,
  type ExecResult,
  type FileStat,
  type GlobOptions,
  type WorkspaceBackend,
} from "@agent-tools/sdk/builtin";
import { WorkspaceError } from "@agent-tools/sdk";

interface MemoryFile {
  data: Buffer;
  mtimeMs: number;
}

export class MemoryWorkspace extends WorkspaceBase {
  constructor(private readonly projectDirectory: string) {
    super();
  }

  protected get label(): string {
    return "memory workspace";
  }

  protected async start(): Promise<WorkspaceBackend> {
    if (!statSync(this.projectDirectory, { throwIfNoEntry: false })?.isDirectory()) {
      throw new WorkspaceError(
        "WORKSPACE_PROJECT_MISSING",
        `The memory workspace's projectDirectory ${this.projectDirectory} is not a folder.`,
      );
    }
    const backend = new MemoryBackend(this.projectDirectory);
    const copy = (folder: string) => {
      for (const entry of readdirSync(folder, { withFileTypes: true })) {
        const path = join(folder, entry.name);
        if (entry.isDirectory()) copy(path);
        else if (entry.isFile()) backend.put(path, readFileSync(path));
      }
    };
    copy(this.projectDirectory);
    return backend;
  }
}

class MemoryBackend implements WorkspaceBackend {
  readonly confinement: BackendConfinement = { description: "the memory workspace", writableDirectories: [], network: false };
  private readonly files = new Map<string, MemoryFile>();
  private readonly directories = new Set<string>(["/"]);
  private backgroundRuns = 0;

  constructor(readonly cwd: string) {
    this.mkdirs(cwd);
  }

  put(path: string, data: Uint8Array): void {
    this.mkdirs(dirname(path));
    this.files.set(path, { data: Buffer.from(data), mtimeMs: Date.now() });
  }

  private mkdirs(path: string): void {
    for (let folder = path; !this.directories.has(folder); folder = dirname(folder)) this.directories.add(folder);
  }

  async readFile(path: string): Promise<Buffer> {
    const file = this.files.get(path);
    if (file === undefined) throw new WorkspaceError("WORKSPACE_OPERATION_FAILED", `memory workspace: no file ${path}`);
    return Buffer.from(file.data);
  }

  async writeFile(path: string, data: string | Uint8Array): Promise<void> {
    if (this.directories.has(path)) throw new WorkspaceError("WORKSPACE_OPERATION_FAILED", `memory workspace: ${path} is a folder`);
    this.put(path, typeof data === "string" ? Buffer.from(data, "utf8") : data);
  }

  async stat(path: string): Promise<FileStat | undefined> {
    const file = this.files.get(path);
    if (file !== undefined) return { size: file.data.length, mtimeMs: file.mtimeMs, isFile: true, isDirectory: false };
    return this.directories.has(path) ? { size: 0, mtimeMs: 1, isFile: false, isDirectory: true } : undefined;
  }

  async glob(pattern: string, options: GlobOptions): Promise<string[]> {
    const matches = picomatch(pattern, { dot: true });
    const ignored = options.ignore.length > 0 ? picomatch(options.ignore, { dot: true }) : () => false;
    return this.filesUnder(options.cwd).filter((path) => {
      const inside = relative(options.cwd, path);
      return matches(inside) && !ignored(inside);
    });
  }

  async grep(args: string[], options: ExecOptions): Promise<ExecResult> {
    const parsed = parseRipgrep(args);
    if (typeof parsed === "string") return { exitCode: 2, stdout: "", stderr: parsed, timedOut: false, aborted: false };
    let regex: RegExp;
    try {
      regex = new RegExp(parsed.pattern, `g${parsed.ignoreCase ? "i" : ""}`);
    } catch (error) {
      return { exitCode: 2, stdout: "", stderr: `regex parse error: ${(error as Error).message}`, timedOut: false, aborted: false };
    }
    const root = resolve(options.cwd, parsed.root);
    const candidates = this.files.has(root) ? [root] : this.filesUnder(root);
    const lines: string[] = [];
    for (const path of candidates.filter((file) => parsed.includes(relative(root, file) || file))) {
      const text = this.files.get(path)!.data.toString("utf8");
      const matching = text.split("\n").flatMap((line, index) => (line.match(regex) ? [{ line, number: index + 1 }] : []));
      if (matching.length === 0) continue;
      if (parsed.mode === "files") lines.push(path);
      else if (parsed.mode === "count") lines.push(`${path}:${matching.length}`);
      else for (const { line, number } of matching) lines.push(parsed.lineNumbers ? `${path}:${number}:${line}` : `${path}:${line}`);
    }
    return {
      exitCode: lines.length > 0 ? 0 : 1,
      stdout: lines.map((line) => `${line}\n`).join(""),
      stderr: "",
      timedOut: false,
      aborted: false,
    };
  }

  exec(argv: string[], options: ExecOptions): Promise<ExecResult> {
    if (argv[0] !== "bash" || argv[1] !== "-c" || argv.length !== 3) {
      return Promise.resolve({
        exitCode: 127,
        stdout: "",
        stderr: `memory workspace runs bash -c SCRIPT only, got ${argv.join(" ")}`,
        timedOut: false,
        aborted: false,
      });
    }
    return new MemoryShell(this, options).run(argv[2]!);
  }

  async startBackground(argv: string[], options: Pick<ExecOptions, "cwd" | "env">): Promise<BackgroundProcess> {
    const pid = ++this.backgroundRuns;
    const logPath = `/tmp/memory-background-${pid}.log`;
    this.put(logPath, Buffer.alloc(0));
    void this.exec(argv, { ...options, timeoutMs: 600_000 }).then((result) =>
      this.put(logPath, Buffer.from(result.stdout + result.stderr)),
    );
    return { pid, logPath };
  }

  filesUnder(folder: string): string[] {
    const prefix = folder.endsWith("/") ? folder : `${folder}/`;
    return [...this.files.keys()].filter((path) => path.startsWith(prefix)).sort();
  }
}

/** One run of a script: the commands in order, their output gathered, a timeout and an abort signal honoured. */
class MemoryShell {
  private stdout = "";
  private stderr = "";
  private stopped: "timeout" | "abort" | undefined;
  private readonly wake: Array<() => void> = [];

  constructor(
    private readonly backend: MemoryBackend,
    private readonly options: ExecOptions,
  ) {}

  async run(script: string): Promise<ExecResult> {
    const timer = setTimeout(() => this.stop("timeout"), this.options.timeoutMs);
    const onAbort = () => this.stop("abort");
    this.options.signal?.addEventListener("abort", onAbort, { once: true });
    let status = 0;
    try {
      for (const { command, joiner } of splitCommands(script)) {
        if (joiner === "&&" && status !== 0) continue;
        const outcome = await this.command(words(command));
        if (this.stopped) break;
        status = outcome.status;
        if (outcome.exit) break;
      }
    } finally {
      clearTimeout(timer);
      this.options.signal?.removeEventListener("abort", onAbort);
    }
    const limit = this.options.maxOutputBytes ?? Number.POSITIVE_INFINITY;
    const cap = (text: string) => Buffer.from(text).subarray(0, limit).toString("utf8");
    return {
      exitCode: this.stopped ? -1 : status,
      stdout: cap(this.stdout),
      stderr: cap(this.stderr),
      timedOut: this.stopped === "timeout",
      aborted: this.stopped === "abort",
    };
  }

  private stop(why: "timeout" | "abort"): void {
    this.stopped = why;
    for (const wake of this.wake.splice(0)) wake();
  }

  private async command(argv: string[]): Promise<{ status: number; exit?: boolean }> {
    const redirect = takeRedirect(argv);
    let out = "";
    let err = "";
    let status = 0;
    const [name, ...args] = argv;
    const path = (file: string) => (isAbsolute(file) ? file : resolve(this.options.cwd, file));
    if (name === "echo") out = `${args.join(" ")}\n`;
    else if (name === "pwd") out = `${this.options.cwd}\n`;
    else if (name === "true" || name === undefined) status = 0;
    else if (name === "false") status = 1;
    else if (name === "exit") return { status: Number(args[0] ?? 0), exit: true };
    else if (name === "sleep")
      await new Promise<void>((done) => {
        const timer = setTimeout(done, Number(args[0]) * 1000);
        this.wake.push(() => {
          clearTimeout(timer);
          done();
        });
      });
    else if (name === "cat") {
      for (const file of args) {
        const data = await this.backend.readFile(path(file)).catch(() => undefined);
        if (data === undefined) {
          err += `cat: ${file}: No such file or directory\n`;
          status = 1;
        } else out += data.toString("utf8");
      }
    } else {
      err = `memory-shell: ${name}: command not found\n`;
      status = 127;
    }
    if (redirect?.kind === "stderr") [out, err] = ["", err + out];
    else if (redirect !== undefined) {
      const target = path(redirect.file);
      const before =
        redirect.kind === "append" ? ((await this.backend.readFile(target).catch(() => undefined))?.toString("utf8") ?? "") : "";
      await this.backend.writeFile(target, before + out);
      out = "";
    }
    this.stdout += out;
    this.stderr += err;
    return { status };
  }
}

/** The script's commands with what joins each to the one before (`;` or `&&`), quotes respected. */
function splitCommands(script: string): { command: string; joiner: ";" | "&&" }[] {
  const commands: { command: string; joiner: ";" | "&&" }[] = [];
  let current = "";
  let joiner: ";" | "&&" = ";";
  let quote: string | undefined;
  for (let index = 0; index < script.length; index++) {
    const char = script[index]!;
    if (quote) {
      if (char === quote) quote = undefined;
      current += char;
    } else if (char === "'" || char === '"') {
      quote = char;
      current += char;
    } else if (char === ";" || (char === "&" && script[index + 1] === "&")) {
      commands.push({ command: current, joiner });
      joiner = char === ";" ? ";" : "&&";
      if (char === "&") index++;
      current = "";
    } else current += char;
  }
  commands.push({ command: current, joiner });
  return commands.filter(({ command }) => command.trim() !== "");
}

/** Words of one command: whitespace-separated, '' and "" quoting (no expansions). */
function words(command: string): string[] {
  const found: string[] = [];
  for (const match of command.matchAll(/'([^']*)'|"([^"]*)"|(\S+)/g)) found.push(match[1] ?? match[2] ?? match[3]!);
  return found;
}

/** Removes a trailing `>&2`, `> file` or `>> file` from `argv` and says what it was. */
function takeRedirect(argv: string[]): { kind: "stderr" } | { kind: "write" | "append"; file: string } | undefined {
  const at = argv.findIndex((word) => word === ">&2" || word === ">" || word === ">>");
  if (at === -1) return undefined;
  const [operator, file] = argv.splice(at, 2);
  if (operator === ">&2") {
    if (file !== undefined) argv.splice(at, 0, file);
    return { kind: "stderr" };
  }
  return { kind: operator === ">>" ? "append" : "write", file: file ?? "/dev/null" };
}

interface RipgrepRun {
  pattern: string;
  root: string;
  mode: "files" | "count" | "content";
  lineNumbers: boolean;
  ignoreCase: boolean;
  /** Whether a file (relative to the root) passes the --glob filters, as ripgrep applies them to names and paths. */
  includes: (path: string) => boolean;
}

/** The ripgrep options the Grep tool sends (docs/design/builtin-tools.md#grep-command-line), or what is not supported. */
function parseRipgrep(args: readonly string[]): RipgrepRun | string {
  const run: Omit<RipgrepRun, "includes"> = { pattern: "", root: ".", mode: "content", lineNumbers: false, ignoreCase: false };
  const globs: string[] = [];
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!;
    if (arg === "--") {
      run.root = args[index + 1] ?? ".";
      break;
    }
    if (arg === "--hidden" || arg === "--no-config") continue;
    if (arg === "--max-columns" || arg === "--sort") index++;
    else if (arg === "--glob") globs.push(args[++index]!);
    else if (arg === "-e") run.pattern = args[++index]!;
    else if (arg === "-l") run.mode = "files";
    else if (arg === "-c") run.mode = "count";
    else if (arg === "-n") run.lineNumbers = true;
    else if (arg === "-i") run.ignoreCase = true;
    else return `memory ripgrep: unsupported option ${arg}`;
  }
  const matcher = (pattern: string) => {
    const test = picomatch(pattern, { dot: true });
    return (path: string) => (pattern.includes("/") ? test(path) : path.split("/").some((segment) => test(segment)));
  };
  const excluded = globs.filter((glob) => glob.startsWith("!")).map((glob) => matcher(glob.slice(1)));
  const included = globs.filter((glob) => !glob.startsWith("!")).map(matcher);
  const includes = (path: string) => !excluded.some((test) => test(path)) && (included.length === 0 || included.some((test) => test(path)));
  return { ...run, includes };
}
