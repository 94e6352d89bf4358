import { readdirSync } from "node:fs";
import { fileStat } from "../../permission/working-directories.js";
import { homedir, userInfo } from "node:os";
import { join } from "node:path";
import type { HiddenPath } from "../../sandbox/sandbox-profile.js";
import { existingMatches, isSecretEntry, secretLists, type DangerousPathLists } from "../paths/dangerous-paths.js";
import { credentialContentReason } from "../paths/secret-content.js";
import { SECRET_SYSTEM_PATHS } from "../paths/secret-locations.js";
import { treeSecretEntries } from "../paths/tree-secrets.js";

/** Home-relative secret locations that follow an XDG base directory when the user moved it. */
const XDG_BASES = [
  { prefix: ".config/", variable: "XDG_CONFIG_HOME" },
  { prefix: ".local/share/", variable: "XDG_DATA_HOME" },
] as const;

export interface HiddenSecretsOptions {
  /** The tool's dangerous-path lists: their secret entries are masked under every home. */
  lists: DangerousPathLists;
  /** Walked for secret files (`.env`, `*.pem`, a `.git/config` holding a token, links to secrets). */
  workingDirectories: readonly string[];
  /** Paths a `Read(...)` allow rule names: left visible. */
  revealed: (path: string) => boolean;
  /** Told once per working directory too big to walk whole (the top levels are still masked). */
  onLimit: (directory: string, limit: string) => void;
}

/**
 * What the Bash sandbox masks (docs/sandbox.md#secrets-hidden), computed for each command so a
 * secret that appeared since the last one is hidden too: the secret locations the file tools know
 * (`SECRET_LOCATIONS` and the tool's dangerous files and directories that hold secrets) under
 * every home directory and moved XDG folder, secret names at the top of each home, the secret
 * system files, and every secret a walk of the working directories finds. Only what exists.
 */
export function hiddenSecrets(options: HiddenSecretsOptions): HiddenPath[] {
  const hidden = new Map<string, HiddenPath["kind"]>();
  const add = (path: string) => {
    if (hidden.has(path)) return;
    const kind = kindOf(path);
    if (kind !== undefined && !options.revealed(path)) hidden.set(path, kind);
  };
  const lists = secretLists(options.lists);
  for (const base of homeBases()) {
    for (const path of [...lists.files, ...lists.directories]) add(join(base, path));
    // A home's own files, by name or by content (`~/.sentryclirc` is listed nowhere but holds a token).
    for (const entry of listing(base)) {
      const path = join(base, entry);
      if (isSecretEntry(path, options.lists) || credentialContentReason(path) !== undefined) add(path);
    }
  }
  for (const { prefix, variable } of XDG_BASES) {
    const base = process.env[variable];
    if (base === undefined || base === "") continue;
    for (const path of [...lists.files, ...lists.directories]) if (path.startsWith(prefix)) add(join(base, path.slice(prefix.length)));
  }
  for (const mask of SECRET_SYSTEM_PATHS.flatMap((entry) => entry.masks))
    for (const path of mask.includes("*") ? (existingMatches(mask) ?? []) : [mask]) add(path);
  for (const directory of options.workingDirectories) {
    const { secrets, limit } = treeSecretEntries(directory, options.lists);
    for (const secret of secrets) add(secret.path);
    if (limit !== undefined) options.onLimit(directory, limit);
  }
  return [...hidden].map(([path, kind]) => ({ path, kind }));
}

/** The agent's home, the account's home, root's and every folder in /home: another user's secrets are secrets too. */
function homeBases(): string[] {
  return [...new Set([homedir(), accountHome(), "/root", ...listing("/home").map((name) => join("/home", name))])];
}

/** The home the password database gives (HOME may point elsewhere); `homedir()` where there is no entry. */
function accountHome(): string {
  try {
    return userInfo().homedir;
  } catch {
    return homedir();
  }
}

function listing(directory: string): string[] {
  try {
    return readdirSync(directory);
  } catch {
    return [];
  }
}

/** Directory or not (links followed); undefined when nothing is there. */
function kindOf(path: string): HiddenPath["kind"] | undefined {
  const stat = fileStat(path);
  return stat === undefined ? undefined : stat.isDirectory() ? "directory" : "file";
}
