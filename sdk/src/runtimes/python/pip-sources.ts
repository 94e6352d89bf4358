import { isAbsolute, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { toolCapabilityProblems } from "../../sandbox/capabilities/tool-capabilities.js";

/** The default index, when no `--index-url` replaces it: pages on pypi.org, files on files.pythonhosted.org. */
export const DEFAULT_INDEX_HOSTS: readonly string[] = ["pypi.org:443", "files.pythonhosted.org:443"];

/**
 * The pip options whose values say where packages (or pip's settings) come from, as pipArgs flags
 * and as the `PIP_*` variables of pipEnv. Their URLs are the only hosts an install may reach; their
 * local paths are bound read-only into the install sandbox and made absolute (pip runs in the
 * tool's `code/`). `kind` says how a value counts (docs/sandbox.md#dependency-installation).
 */
const PIP_SOURCE_OPTIONS: ReadonlyArray<{ flags: string[]; env: string; kind: "index" | "extra-index" | "links" | "file"; why: string }> = [
  { flags: ["-i", "--index-url"], env: "PIP_INDEX_URL", kind: "index", why: "replaces the default index (pypi.org)" },
  { flags: ["--extra-index-url"], env: "PIP_EXTRA_INDEX_URL", kind: "extra-index", why: "an index searched besides the main one" },
  {
    flags: ["-f", "--find-links"],
    env: "PIP_FIND_LINKS",
    kind: "links",
    why: "a folder of archives, or a page linking to them; searched even with --no-index",
  },
  { flags: ["-c", "--constraint"], env: "PIP_CONSTRAINT", kind: "file", why: "a constraints file (a path or URL)" },
  { flags: ["-r", "--requirement"], env: "PIP_REQUIREMENT", kind: "file", why: "more requirements (a path or URL)" },
  { flags: ["--cert"], env: "PIP_CERT", kind: "file", why: "the CA bundle of a private index" },
  { flags: ["--client-cert"], env: "PIP_CLIENT_CERT", kind: "file", why: "the client certificate of a private index" },
  { flags: [], env: "PIP_CONFIG_FILE", kind: "file", why: "a pip configuration chosen in pipEnv (the machine's is never read)" },
];

/** pip reads these as true (its `strtobool`). */
const TRUE_WORDS = new Set(["1", "true", "yes", "y", "on"]);

/** What an install may reach and read, from the SDK user's explicit pip settings. */
export interface PipSources {
  /** pipArgs, local paths made absolute. */
  args: string[];
  /** pipEnv, local paths made absolute. */
  env: Record<string, string>;
  /** `host:port` pairs: the effective index, extra indexes, find-links pages, URLs of files. */
  hosts: string[];
  /** Local files and folders the settings name. */
  paths: string[];
}

/**
 * Reads where packages come from, as pip would: `--index-url` replaces pypi.org, `--no-index`
 * drops every index (find-links stay), and a requirements file inside the tool adds nothing (its
 * own `--index-url` reaches a host nobody granted, and fails). Relative paths are from `cwd`.
 */
export function readPipSources(pipArgs: readonly string[], pipEnv: Readonly<Record<string, string>>, cwd = process.cwd()): PipSources {
  const found: FoundSource[] = [];
  const args = [...pipArgs];
  let noIndex = TRUE_WORDS.has((pipEnv.PIP_NO_INDEX ?? "").toLowerCase());
  for (let i = 0; i < args.length; i++) {
    if (args[i] === "--no-index") noIndex = true;
    const flag = sourceFlag(args[i]!);
    if (flag === undefined) continue;
    const at = flag.attached === undefined ? ++i : i;
    if (at >= args.length) break;
    const prefix = flag.attached === undefined ? "" : args[at]!.slice(0, args[at]!.length - flag.attached.length);
    found.push({ kind: flag.kind, value: args[at]!.slice(prefix.length), set: (value) => (args[at] = `${prefix}${value}`) });
  }
  const env = { ...pipEnv };
  for (const option of PIP_SOURCE_OPTIONS) {
    const text = env[option.env];
    if (text === undefined || (option.env === "PIP_CONFIG_FILE" && text === "/dev/null")) continue;
    const values = text.split(/\s+/).filter(Boolean);
    values.forEach((value, position) => {
      const set = (absolute: string) => {
        values[position] = absolute;
        env[option.env] = values.join(" ");
      };
      found.push({ kind: option.kind, value, set });
    });
  }

  const hosts = new Set<string>();
  const paths = new Set<string>();
  if (!noIndex && !found.some((source) => source.kind === "index")) for (const host of DEFAULT_INDEX_HOSTS) hosts.add(host);
  for (const source of found) {
    const located = locate(source.value, cwd);
    if (located.path !== undefined) {
      paths.add(located.path);
      if (located.path !== source.value) source.set(located.path);
    } else if (located.host !== undefined && !(noIndex && (source.kind === "index" || source.kind === "extra-index"))) {
      hosts.add(located.host);
    }
  }
  return { args, env, hosts: [...hosts], paths: [...paths] };
}

type SourceKind = (typeof PIP_SOURCE_OPTIONS)[number]["kind"];

/** One value naming a source, and how to write it back made absolute. */
interface FoundSource {
  kind: SourceKind;
  value: string;
  set(absolute: string): void;
}

/** A source flag: `--find-links` (value in the next argument), `--find-links=x` or `-fx` (attached). */
function sourceFlag(arg: string): { kind: SourceKind; attached?: string } | undefined {
  for (const option of PIP_SOURCE_OPTIONS) {
    for (const flag of option.flags) {
      if (arg === flag) return { kind: option.kind };
      const prefix = flag.startsWith("--") ? `${flag}=` : flag;
      if (arg.startsWith(prefix)) return { kind: option.kind, attached: arg.slice(prefix.length) };
    }
  }
  return undefined;
}

/** A network URL's `host:port`, or a local path (a `file:` URL, or a path relative to `cwd`); nothing for a URL pip cannot read either. */
function locate(value: string, cwd: string): { host?: string; path?: string } {
  if (/^https?:/i.test(value)) {
    const url = URL.canParse(value) ? new URL(value) : undefined;
    return url === undefined ? {} : { host: `${url.hostname}:${url.port || (url.protocol === "https:" ? 443 : 80)}` };
  }
  if (/^file:/i.test(value)) {
    try {
      return { path: fileURLToPath(value) };
    } catch {
      return {}; // not a local file URL (another host, bad escapes)
    }
  }
  return { path: isAbsolute(value) ? value : resolve(cwd, value) };
}

/** The `pipHosts` option, checked as a tool's network capabilities are: `host:port`, `host` (80 and 443), `*.example.com`. */
export function readPipHosts(hosts: readonly string[] | undefined): string[] {
  const problems = toolCapabilityProblems({ network: hosts ?? [] }).map((problem) =>
    problem.replace("tool_capabilities.network", "pipHosts"),
  );
  if (problems.length > 0) throw new RangeError(`${problems.join("; ")}.`);
  return (hosts ?? []).map((host) => host.toLowerCase());
}
