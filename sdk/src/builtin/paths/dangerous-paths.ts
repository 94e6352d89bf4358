import { credentialContentReason } from "./secret-content.js";
import { readdirSync } from "node:fs";
import { homedir } from "node:os";
import { join, resolve, sep } from "node:path";
import { expandHome, fileStat, resolveRealPath } from "../../permission/working-directories.js";
import { shellGlobToRegExp } from "./shell-glob.js";
import { SECRET_LOCATIONS, SECRET_NAME_EXCEPTIONS, SECRET_NAME_PATTERNS, SECRET_SYSTEM_PATHS } from "./secret-locations.js";

/** Git's and the shells' start-up files: they run or configure what runs, so writing them is dangerous; reading them is not. */
const STARTUP_FILES = [
  ".gitconfig",
  ".gitmodules",
  ".bashrc",
  ".bash_profile",
  ".bash_login",
  ".bash_logout",
  ".zshrc",
  ".zshenv",
  ".zprofile",
  ".zlogin",
  ".profile",
];

/** The default lists (docs/design/permission-model.md#dangerous-paths): shell start-up files, credentials and tool configuration. */
export const DEFAULT_DANGEROUS_FILES: readonly string[] = [
  ...STARTUP_FILES,
  ".ssh/config",
  ".ssh/authorized_keys",
  ".netrc",
  ".npmrc",
  ".pypirc",
  ".env",
  ".envrc",
  ".env.local",
  ".env.development",
  ".env.development.local",
  ".env.test",
  ".env.test.local",
  ".env.staging",
  ".env.production",
  ".env.production.local",
  ".git-credentials",
  ".pgpass",
  ".my.cnf",
  "id_rsa",
  "id_ed25519",
  "id_ecdsa",
  "id_dsa",
];

/** A path with any of these segments is dangerous (`.git/hooks` runs code, `.ssh` holds keys). */
export const DEFAULT_DANGEROUS_DIRECTORIES: readonly string[] = [
  ".git",
  ".vscode",
  ".idea",
  ".ssh",
  ".aws",
  ".gnupg",
  ".kube",
  ".docker",
  ".config/gh",
  ".husky",
  ".claude",
];

/** System locations that no agent should write; reading most of them is fine. */
const SYSTEM_WRITE_PREFIXES = [
  "/etc",
  "/usr",
  "/bin",
  "/sbin",
  "/lib",
  "/lib64",
  "/boot",
  "/sys",
  "/proc",
  "/dev",
  "/var/spool/cron",
  "/root",
];
/** Device files that are safe to write to. */
const HARMLESS_DEVICES = /^\/dev\/(null|zero|stdout|stderr|stdin|tty|fd\/\d+)$/;
/** Names the kernel resolves per process (`/dev/stderr` → `/proc/self/fd/2`). */
const PROCESS_DESCRIPTORS = /^\/dev\/(stdin|stdout|stderr|fd\/\d+)$/;
/** Device files that are safe to read; any other device (a disk, `/dev/mem`) exposes everything on the machine. */
const HARMLESS_READ_DEVICES = /^\/dev\/(null|zero|full|random|urandom|stdin|stdout|stderr|tty|fd\/\d+)$/;
/** Bash opens a network connection for these redirect targets. */
const NETWORK_PSEUDO_FILES = /^\/dev\/(tcp|udp)(\/|$)/;

/** The secret locations of `secret-locations.ts`, as list entries: they count for reads and writes. */
const SECRET_FILES = SECRET_LOCATIONS.filter((entry) => entry.kind === "file").map((entry) => entry.path);
const SECRET_DIRECTORIES = SECRET_LOCATIONS.filter((entry) => entry.kind === "directory").map((entry) => entry.path);

export interface DangerousPathLists {
  files: readonly string[];
  directories: readonly string[];
}

/** A tool's dangerous-path options: replacements for the defaults, or additions to them. */
export interface DangerousPathOptions {
  dangerousFiles?: readonly string[] | undefined;
  dangerousDirectories?: readonly string[] | undefined;
  additionalDangerousFiles?: readonly string[] | undefined;
  additionalDangerousDirectories?: readonly string[] | undefined;
}

/** The defaults plus additional entries (`additionalDangerousFiles`/`additionalDangerousDirectories`), or replacements. */
export function dangerousPathLists(options: DangerousPathOptions): DangerousPathLists {
  return {
    files: [...(options.dangerousFiles ?? DEFAULT_DANGEROUS_FILES), ...(options.additionalDangerousFiles ?? [])],
    directories: [...(options.dangerousDirectories ?? DEFAULT_DANGEROUS_DIRECTORIES), ...(options.additionalDangerousDirectories ?? [])],
  };
}

export type PathAccess = "read" | "write";

/**
 * True when `path` (relative to `cwd`, `~` expanded) names a dangerous file or lies in a dangerous
 * directory, judged on the path as written AND on its real path, so a symlink into `.git/` or to
 * `~/.bashrc` is caught; a regular file with several hard links counts too (it may be another name
 * for a secret). Names compare case-insensitively, whole segments only (`foo.git` is fine).
 */
export function isDangerousPath(path: string, lists: DangerousPathLists, cwd: string, access: PathAccess): boolean {
  return dangerousPathReason(path, lists, cwd, access) !== undefined;
}

/** Why `path` is dangerous (see `isDangerousPath`), in plain words, or undefined when it is not. */
export function dangerousPathReason(path: string, lists: DangerousPathLists, cwd: string, access: PathAccess): string | undefined {
  // `~user/...` is another account's home: its contents are not the project's to read or write.
  if (isOtherUsersHome(path)) return "another user's home directory";
  const written = resolve(cwd, expandHome(path));
  // The command's own descriptors: what they lead to here is this process's stderr, not the command's;
  // whatever a redirect opens on them is judged where the redirect names it.
  if (PROCESS_DESCRIPTORS.test(written)) return undefined;
  const real = resolveRealPath(written, cwd);
  const relevant = listsFor(lists, access);
  for (const candidate of new Set([written, real])) {
    const reason = listedReason(candidate, relevant) ?? systemPathReason(candidate, access);
    if (reason !== undefined) return candidate === written ? reason : `${reason} (the real path is ${real})`;
  }
  const links = hardLinkCount(real);
  if (links > 1) return `a file with ${links} hard links: it may be another name for a secret`;
  // Secrets by kind: whatever a file is called, a credential in it makes reading it a secret read.
  const held = access === "read" ? credentialContentReason(real) : undefined;
  return held === undefined ? undefined : `a file holding ${held} (docs/command-policy.md#secrets-by-content)`;
}

/** The link count of a regular file (0 when it is missing or not a regular file). */
export function hardLinkCount(path: string): number {
  const stat = fileStat(path);
  return stat?.isFile() ? stat.nlink : 0;
}

/**
 * Dangerous to write but harmless to read: start-up files, editor settings, the git internals (except
 * `.git/config`, which may hold tokens).
 */
const READABLE_ENTRIES = new Set([...STARTUP_FILES, ".git", ".vscode", ".idea", ".husky", ".claude"]);

const listsForCache = {
  read: new WeakMap<DangerousPathLists, DangerousPathLists>(),
  write: new WeakMap<DangerousPathLists, DangerousPathLists>(),
};

/** For reads, only the entries that hold secrets count (computed once per lists object). */
function listsFor(lists: DangerousPathLists, access: PathAccess): DangerousPathLists {
  let relevant = listsForCache[access].get(lists);
  if (relevant === undefined) listsForCache[access].set(lists, (relevant = computeListsFor(lists, access)));
  return relevant;
}

function computeListsFor(lists: DangerousPathLists, access: PathAccess): DangerousPathLists {
  if (access === "write") return { files: [...lists.files, ...SECRET_FILES], directories: [...lists.directories, ...SECRET_DIRECTORIES] };
  return {
    files: [...lists.files.filter((entry) => !READABLE_ENTRIES.has(entry)), ".git/config", ...SECRET_FILES],
    directories: [...lists.directories.filter((entry) => !READABLE_ENTRIES.has(entry)), ...SECRET_DIRECTORIES],
  };
}

/** `~root`, `~alice/x` (but not `~`, `~/x`, `~+` or `~-`). */
function isOtherUsersHome(path: string): boolean {
  return /^~[A-Za-z0-9_.][^/]*(\/|$)/.test(path);
}

/**
 * For a glob (`/et?/shado?`, `~/.ss*\/id_*`): true when some expansion could be dangerous. Each
 * globbed segment is tested against the dangerous names, and the whole pattern against the
 * secret system files; leading `*` and `?` do not match dot-files, as in bash.
 */
export function mayExpandToDangerousPath(pattern: string, lists: DangerousPathLists, cwd: string, access: PathAccess): boolean {
  const absolute = resolve(cwd, expandHome(pattern));
  if (isDangerousPath(absolute, lists, cwd, access)) return true;
  const segments = absolute.split(sep).filter(Boolean);
  // Key files without a leading dot (id_rsa) are left out: `cat *` in a project is everyday work.
  const relevant = listsFor(lists, access);
  const names = [...relevant.directories, ...relevant.files].flatMap((entry) => entry.split("/")).filter((name) => name.startsWith("."));
  // A bare `*` is left out for the secret name patterns too, but `*.pem` or `.env.*` count.
  const samples = (segment: string) => (/^[*?]+$/.test(segment) ? names : [...names, ...SECRET_NAME_PATTERNS.map((entry) => entry.sample)]);
  const globbed = segments.some((segment) => {
    if (!/[*?[{]/.test(segment)) return false;
    const matcher = shellGlobToRegExp(segment, { hideDotFiles: true });
    return samples(segment).some((name) => matcher.test(name));
  });
  if (globbed) return true;
  const whole = shellGlobToRegExp(absolute, { hideDotFiles: true });
  const probes = [
    ...SYSTEM_PROBES,
    "/etc/gshadow",
    "/etc/sudoers",
    "/proc/self/environ",
    "/proc/self/mem",
    "/dev/sda",
    "/dev/mem",
    "/dev/tcp/x/1",
  ];
  if (probes.some((probe) => whole.test(probe))) return true;
  const first = shellGlobToRegExp(segments[0] ?? "", { hideDotFiles: true });
  if (access === "write" && SYSTEM_WRITE_PREFIXES.some((prefix) => first.test(prefix.slice(1).split("/")[0]!))) return true;
  // Each match by real path: `cat docs/*` where `docs/x` links to `~/.ssh/id_rsa`.
  const matches = existingMatches(absolute);
  return matches === undefined || matches.some((match) => isDangerousPath(match, lists, cwd, access));
}

/** One path per secret system location, to test globs and search roots against. */
const SYSTEM_PROBES = SECRET_SYSTEM_PATHS.map((entry) => entry.probe);

/** Directory entries a glob may read while being checked; beyond that it is judged unknowable. */
const MAX_GLOB_ENTRIES = 1000;

/**
 * The files a glob matches now, as bash would (segment by segment, no dot-files for a leading `*`
 * or `?`), or undefined when that takes more than MAX_GLOB_ENTRIES directory entries.
 */
export function existingMatches(absolutePattern: string): string[] | undefined {
  if (!/[*?[{]/.test(absolutePattern)) return [];
  let paths = ["/"];
  let budget = MAX_GLOB_ENTRIES;
  for (const segment of absolutePattern.split(sep).filter(Boolean)) {
    if (!/[*?[{]/.test(segment)) {
      paths = paths.map((path) => join(path, segment));
      continue;
    }
    const matcher = shellGlobToRegExp(segment, { hideDotFiles: true });
    const next: string[] = [];
    for (const path of paths) {
      let entries: string[];
      try {
        entries = readdirSync(path);
      } catch {
        continue;
      }
      budget -= entries.length;
      if (budget < 0) return undefined;
      for (const entry of entries) if (matcher.test(entry)) next.push(join(path, entry));
    }
    paths = next;
  }
  return paths;
}

/**
 * For a directory searched recursively (`grep -r x ~`, `rg --hidden x /`): true when it is, or
 * contains, a place that holds secrets: the home directory's credential files and directories,
 * another user's home, or the secret system files.
 */
export function mayContainDangerousPath(directory: string, lists: DangerousPathLists, cwd: string): boolean {
  if (isDangerousPath(directory, lists, cwd, "read")) return true;
  const absolute = resolve(cwd, expandHome(directory));
  const candidates = [absolute, resolveRealPath(absolute, cwd)];
  const relevant = listsFor(lists, "read");
  const secrets = [...relevant.files, ...relevant.directories].map((entry) => resolve(homedir(), entry));
  secrets.push(...SYSTEM_PROBES, "/root/.ssh", "/home/user/.ssh");
  return candidates.some((path) => {
    const prefix = path.endsWith(sep) ? path : `${path}${sep}`;
    return /^\/home\/[^/]+$/.test(path) || secrets.some((secret) => secret.startsWith(prefix));
  });
}

/** The entries of `lists` whose contents are secret (what a read is checked against), with the secret locations. */
export function secretLists(lists: DangerousPathLists): DangerousPathLists {
  return listsFor(lists, "read");
}

/**
 * For a tree walk (`grep -r x .`): true when this absolute path names a file or directory whose
 * contents are secret, by name only (the walk decides about symlinks itself).
 */
export function isSecretEntry(absolutePath: string, lists: DangerousPathLists): boolean {
  return matchesLists(absolutePath, listsFor(lists, "read"));
}

function matchesLists(path: string, lists: DangerousPathLists): boolean {
  return listedReason(path, lists) !== undefined;
}

/** Lists in the form `listedReason` compares: lower-case names, and multi-segment entries split. */
interface CompiledLists {
  names: Map<string, string>;
  suffixes: { suffix: string; entry: string }[];
  directories: { parts: string[]; entry: string }[];
}
const compiledLists = new WeakMap<DangerousPathLists, CompiledLists>();

function compileLists(lists: DangerousPathLists): CompiledLists {
  let compiled = compiledLists.get(lists);
  if (compiled !== undefined) return compiled;
  compiled = { names: new Map(), suffixes: [], directories: [] };
  for (const entry of lists.files) {
    const lower = entry.toLowerCase();
    if (lower.includes("/")) compiled.suffixes.push({ suffix: `/${lower}`, entry });
    else if (!compiled.names.has(lower)) compiled.names.set(lower, entry);
  }
  for (const entry of lists.directories) compiled.directories.push({ parts: entry.toLowerCase().split("/").filter(Boolean), entry });
  compiledLists.set(lists, compiled);
  return compiled;
}

/** Which list entry or secret name pattern `path` matches, in words. */
function listedReason(path: string, lists: DangerousPathLists): string | undefined {
  const segments = path.toLowerCase().split(sep).filter(Boolean);
  const joined = `/${segments.join("/")}`;
  const base = segments.at(-1) ?? "";
  const named = SECRET_NAME_PATTERNS.find((entry) => entry.pattern.test(base));
  if (named && !SECRET_NAME_EXCEPTIONS.some((exception) => exception.test(base))) return `a secret by its name (${named.source})`;
  const compiled = compileLists(lists);
  const listedFile = compiled.names.get(base) ?? compiled.suffixes.find(({ suffix }) => joined.endsWith(suffix))?.entry;
  if (listedFile !== undefined) return `a sensitive file (${describeEntry(listedFile)})`;
  const present = new Set(segments);
  const listedDirectory = compiled.directories.find(
    ({ parts }) => present.has(parts[0]!) && segments.some((_, start) => parts.every((part, offset) => segments[start + offset] === part)),
  );
  return listedDirectory === undefined ? undefined : `inside a sensitive directory (${describeEntry(listedDirectory.entry)})`;
}

const ENTRY_SOURCES = new Map(SECRET_LOCATIONS.map((entry) => [entry.path.toLowerCase(), entry.source]));

function describeEntry(entry: string): string {
  const source = ENTRY_SOURCES.get(entry.toLowerCase());
  return source === undefined ? entry : `${entry}: ${source}`;
}

function systemPathReason(path: string, access: PathAccess): string | undefined {
  const secret = SECRET_SYSTEM_PATHS.find((entry) => entry.pattern.test(path));
  if (secret) return `a secret system file (${secret.source})`;
  if (NETWORK_PSEUDO_FILES.test(path)) return "a network connection (bash /dev/tcp, /dev/udp)";
  if (access === "read") return path.startsWith("/dev/") && !HARMLESS_READ_DEVICES.test(path) ? "a device file" : undefined;
  if (HARMLESS_DEVICES.test(path)) return undefined;
  return SYSTEM_WRITE_PREFIXES.some((prefix) => path === prefix || path.startsWith(`${prefix}/`)) ? "a system location" : undefined;
}
