import { readdirSync } from "node:fs";
import { homedir } from "node:os";
import { join, resolve, sep } from "node:path";
import { resolveRealPath } from "../../permission/working-directories.js";
import { shellGlobToRegExp } from "../shell/shell-glob.js";

/** AgentScope's defaults (spec §3): shell start-up files, credentials and tool configuration. */
export const DEFAULT_DANGEROUS_FILES: readonly string[] = [
  ".gitconfig", ".gitmodules", ".bashrc", ".bash_profile", ".bash_login", ".bash_logout", ".zshrc", ".zshenv", ".zprofile",
  ".zlogin", ".profile", ".ssh/config", ".ssh/authorized_keys", ".netrc", ".npmrc", ".pypirc", ".env", ".envrc", ".env.local",
  ".env.development", ".env.development.local", ".env.test", ".env.test.local", ".env.staging", ".env.production",
  ".env.production.local", ".git-credentials", ".pgpass", ".my.cnf", "id_rsa", "id_ed25519", "id_ecdsa", "id_dsa",
];

/** A path with any of these segments is dangerous (`.git/hooks` runs code, `.ssh` holds keys). */
export const DEFAULT_DANGEROUS_DIRECTORIES: readonly string[] = [".git", ".vscode", ".idea", ".ssh", ".aws", ".gnupg", ".kube", ".docker", ".config/gh", ".husky", ".claude"];

/** System locations that no agent should write; reading most of them is fine. */
const SYSTEM_WRITE_PREFIXES = ["/etc", "/usr", "/bin", "/sbin", "/lib", "/lib64", "/boot", "/sys", "/proc", "/dev", "/var/spool/cron", "/root"];
/** System files whose contents are secrets (or the memory of the machine and its processes). */
const SECRET_SYSTEM_FILES = [
  /^\/etc\/(shadow|gshadow|sudoers|master\.passwd)(\.d\/.*|-)?$/,
  // Any process or thread (`/proc/self/task/1/environ`), and other processes' roots, cwds and open files.
  /^\/proc\/.+\/(environ|mem|cmdline|maps|pagemap|auxv|stack|syscall)$/,
  /^\/proc\/[^/]+\/(task\/[^/]+\/)?(root|cwd|fd)\/./,
  /^\/proc\/kcore$/,
  /^\/etc\/ssh\/ssh_host_.*key$/,
  /^\/etc\/ssl\/private(\/.*)?$/,
  /^\/etc\/kubernetes\/(pki\/.*|[^/]+\.conf)$/,
  /^\/(var\/)?run\/secrets(\/.*)?$/,
  /^\/etc\/mysql\/debian\.cnf$/,
  /^\/etc\/security\/opasswd$/,
];
/** Device files that are safe to write to. */
const HARMLESS_DEVICES = /^\/dev\/(null|zero|stdout|stderr|stdin|tty|fd\/\d+)$/;
/** Device files that are safe to read; any other device (a disk, `/dev/mem`) exposes everything on the machine. */
const HARMLESS_READ_DEVICES = /^\/dev\/(null|zero|full|random|urandom|stdin|stdout|stderr|tty|fd\/\d+)$/;
/** Bash opens a network connection for these redirect targets. */
const NETWORK_PSEUDO_FILES = /^\/dev\/(tcp|udp)(\/|$)/;

/**
 * Credentials that AgentScope's list leaves out: cloud, registry and vault tokens, password stores,
 * shell histories (commands typed with secrets in them). They count for reads and writes.
 */
const SECRET_FILES: readonly string[] = [
  ".vault-token", ".s3cfg", ".boto", ".bash_history", ".zsh_history", ".sh_history", ".python_history", ".psql_history",
  ".mysql_history", ".node_repl_history", ".lesshst", ".cargo/credentials", ".cargo/credentials.toml", ".gem/credentials",
  ".terraform.d/credentials.tfrc.json", ".config/hub", ".composer/auth.json", ".m2/settings-security.xml", "gh/hosts.yml", "fish_history", "logins.json", "key4.db", "cookies.sqlite", "Login Data",
];
/** Names that hold secrets wherever they are: every `.env.*` variant, private keys and key stores, Terraform state. */
const SECRET_NAME_PATTERNS = [/^\.env(\..*)?$/, /\.(pem|key|p12|pfx|jks|keystore|kdbx|ppk)$/, /^id_(rsa|dsa|ecdsa|ed25519)(_sk)?$/, /^terraform\.tfstate(\.backup)?$/, /^\.htpasswd$/];
/** One example name per pattern, to test globs against (`cat *.pem`). */
const SECRET_NAME_SAMPLES = [".env.x", "x.pem", "x.key", "x.p12", "x.pfx", "x.jks", "x.keystore", "x.kdbx", "x.ppk", "terraform.tfstate", ".htpasswd"];
const SECRET_DIRECTORIES: readonly string[] = [".azure", ".config/gcloud", ".password-store", ".config/op", ".local/share/keyrings"];

export interface DangerousPathLists {
  files: readonly string[];
  directories: readonly string[];
}

export const DEFAULT_DANGEROUS_PATHS: DangerousPathLists = { files: DEFAULT_DANGEROUS_FILES, directories: DEFAULT_DANGEROUS_DIRECTORIES };

/** The defaults plus additional entries (the seed's `additionalDangerousFiles/Directories`), or replacements. */
export function dangerousPathLists(options: {
  dangerousFiles?: readonly string[] | undefined;
  dangerousDirectories?: readonly string[] | undefined;
  additionalDangerousFiles?: readonly string[] | undefined;
  additionalDangerousDirectories?: readonly string[] | undefined;
}): DangerousPathLists {
  return {
    files: [...(options.dangerousFiles ?? DEFAULT_DANGEROUS_FILES), ...(options.additionalDangerousFiles ?? [])],
    directories: [...(options.dangerousDirectories ?? DEFAULT_DANGEROUS_DIRECTORIES), ...(options.additionalDangerousDirectories ?? [])],
  };
}

export type PathAccess = "read" | "write";

/**
 * True when `path` (relative to `cwd`, `~` expanded) names a dangerous file or lies in a dangerous
 * directory, judged on the path as written AND on its real path, so a symlink into `.git/` or to
 * `~/.bashrc` is caught. Names compare case-insensitively, whole segments only (`foo.git` is fine).
 */
export function isDangerousPath(path: string, lists: DangerousPathLists, cwd: string, access: PathAccess): boolean {
  // `~user/...` is another account's home: its contents are not the project's to read or write.
  if (isOtherUsersHome(path)) return true;
  const written = resolve(cwd, expandTilde(path));
  const real = resolveRealPath(written, cwd);
  const relevant = listsFor(lists, access);
  return [written, real].some((candidate) => matchesLists(candidate, relevant) || isSystemPath(candidate, access));
}

/** Dangerous to write but harmless to read: start-up files, editor settings, the git internals (except `.git/config`, which may hold tokens). */
const READABLE_ENTRIES = new Set([".gitconfig", ".gitmodules", ".bashrc", ".bash_profile", ".bash_login", ".bash_logout", ".zshrc", ".zshenv", ".zprofile", ".zlogin", ".profile", ".git", ".vscode", ".idea", ".husky", ".claude"]);

/** For reads, only the entries that hold secrets count. */
function listsFor(lists: DangerousPathLists, access: PathAccess): DangerousPathLists {
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
  const absolute = resolve(cwd, expandTilde(pattern));
  if (isDangerousPath(absolute, lists, cwd, access)) return true;
  const segments = absolute.split(sep).filter(Boolean);
  // Key files without a leading dot (id_rsa) are left out: `cat *` in a project is everyday work.
  const relevant = listsFor(lists, access);
  const names = [...relevant.directories, ...relevant.files].flatMap((entry) => entry.split("/")).filter((name) => name.startsWith("."));
  // A bare `*` is left out for the secret name patterns too, but `*.pem` or `.env.*` count.
  const samples = (segment: string) => (/^[*?]+$/.test(segment) ? names : [...names, ...SECRET_NAME_SAMPLES]);
  const globbed = segments.some((segment) => /[*?[{]/.test(segment) && samples(segment).some((name) => shellGlobToRegExp(segment, { hideDotFiles: true }).test(name)));
  if (globbed) return true;
  const whole = shellGlobToRegExp(absolute, { hideDotFiles: true });
  const probes = ["/etc/shadow", "/etc/gshadow", "/etc/sudoers", "/proc/self/environ", "/proc/1/environ", "/proc/self/mem", "/proc/kcore", "/dev/sda", "/dev/mem", "/dev/tcp/x/1"];
  if (probes.some((probe) => whole.test(probe))) return true;
  const first = shellGlobToRegExp(segments[0] ?? "", { hideDotFiles: true });
  if (access === "write" && SYSTEM_WRITE_PREFIXES.some((prefix) => first.test(prefix.slice(1).split("/")[0]!))) return true;
  // Each match by real path: `cat docs/*` where `docs/x` links to `~/.ssh/id_rsa`.
  const matches = existingMatches(absolute);
  return matches === undefined || matches.some((match) => isDangerousPath(match, lists, cwd, access));
}

/** Directory entries a glob may read while being checked; beyond that it is judged unknowable. */
const MAX_GLOB_ENTRIES = 1000;

/**
 * The files a glob matches now, as bash would (segment by segment, no dot-files for a leading `*`
 * or `?`), or undefined when that takes more than MAX_GLOB_ENTRIES directory entries.
 */
function existingMatches(absolutePattern: string): string[] | undefined {
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
  const absolute = resolve(cwd, expandTilde(directory));
  const candidates = [absolute, resolveRealPath(absolute, cwd)];
  const relevant = listsFor(lists, "read");
  const secrets = [...relevant.files, ...relevant.directories].map((entry) => resolve(homedir(), entry));
  secrets.push("/etc/shadow", "/etc/ssl/private", "/proc/1/environ", "/root/.ssh", "/home/user/.ssh");
  return candidates.some((path) => {
    const prefix = path.endsWith(sep) ? path : `${path}${sep}`;
    return /^\/home\/[^/]+$/.test(path) || secrets.some((secret) => secret.startsWith(prefix));
  });
}

const readListsCache = new WeakMap<DangerousPathLists, DangerousPathLists>();

/**
 * For a tree walk (`grep -r x .`): true when this absolute path names a file or directory whose
 * contents are secret, by name only (the walk decides about symlinks itself).
 */
export function isSecretEntry(absolutePath: string, lists: DangerousPathLists): boolean {
  let relevant = readListsCache.get(lists);
  if (relevant === undefined) readListsCache.set(lists, (relevant = listsFor(lists, "read")));
  return matchesLists(absolutePath, relevant);
}

function matchesLists(path: string, lists: DangerousPathLists): boolean {
  const segments = path.toLowerCase().split(sep).filter(Boolean);
  const joined = `/${segments.join("/")}`;
  const base = segments.at(-1) ?? "";
  const containsSequence = (entry: string) => {
    const parts = entry.toLowerCase().split("/").filter(Boolean);
    return segments.some((_, start) => parts.every((part, offset) => segments[start + offset] === part));
  };
  return (
    SECRET_NAME_PATTERNS.some((pattern) => pattern.test(base)) ||
    lists.files.some((entry) => (entry.includes("/") ? joined.endsWith(`/${entry.toLowerCase()}`) : base === entry.toLowerCase())) ||
    lists.directories.some(containsSequence)
  );
}

function isSystemPath(path: string, access: PathAccess): boolean {
  if (SECRET_SYSTEM_FILES.some((pattern) => pattern.test(path)) || NETWORK_PSEUDO_FILES.test(path)) return true;
  if (access === "read") return path.startsWith("/dev/") && !HARMLESS_READ_DEVICES.test(path);
  if (HARMLESS_DEVICES.test(path)) return false;
  return SYSTEM_WRITE_PREFIXES.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
}

/** `~` and `~/x` expand to the home directory; `~user` is left alone (not resolved). */
export function expandTilde(path: string): string {
  if (path === "~") return homedir();
  if (path.startsWith("~/")) return `${homedir()}${path.slice(1)}`;
  return path;
}

