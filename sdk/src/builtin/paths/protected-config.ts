import { homedir } from "node:os";
import { resolve, sep } from "node:path";
import { resolveRealPath } from "../../permission/working-directories.js";
import { shellGlobToRegExp } from "./shell-glob.js";

/**
 * Configuration that runs code later (hooks, start-up files, package-manager settings) or grants
 * permissions (the SDK's own settings). A write there is a way to escalate, so it asks in every
 * permission mode, BYPASS included (see `PermissionDecision.alwaysAsk`). As data, one entry per
 * place, each with why it executes.
 */
export interface ProtectedConfigEntry {
  /**
   * Path segments matched at any depth (`.git/hooks` matches `/p/.git/hooks/pre-commit`); a
   * trailing `/**` covers everything below, otherwise the entry names the file itself.
   */
  path: string;
  /** Matched only below the home directory (a project's `.profile` is not a login script). */
  homeOnly?: boolean;
  /** Why a write there runs code or widens permissions. */
  source: string;
}

export const PROTECTED_CONFIG: readonly ProtectedConfigEntry[] = [
  { path: ".agent-tools/**", source: "the SDK's own settings: a write could grant the agent new permissions (docs/permissions.md)" },
  { path: ".git/hooks/**", source: "git hooks run on commit, checkout, merge and push (githooks(5))" },
  { path: ".git/config", source: "git config runs code: core.fsmonitor, core.hooksPath, aliases, filters (git-config(1))" },
  { path: ".git/config.worktree", source: "per-worktree git config, same keys as .git/config" },
  { path: ".git/modules/**", source: "submodule repositories' own config and hooks" },
  { path: ".git/worktrees/**", source: "linked worktrees' config" },
  { path: ".git/info/attributes", source: "git attributes select filter and diff drivers that run commands (gitattributes(5))" },
  { path: ".husky/**", source: "husky: git hooks kept in the project" },
  { path: ".pre-commit-config.yaml", source: "pre-commit: hooks run on every commit once installed" },
  { path: ".yarnrc.yml", source: "Yarn: yarnPath runs the named script as yarn itself (yarnpkg.com, configuration)" },
  { path: ".yarnrc", source: "Yarn 1: yarn-path runs the named script" },
  { path: ".npmrc", source: "npm: script-shell, node-options and git settings run commands (npm docs, config)" },
  { path: ".pnpmfile.cjs", source: "pnpm: hooks run on every install" },
  { path: "bunfig.toml", source: "Bun: preload scripts run before every bun command" },
  { path: ".envrc", source: "direnv: sourced by the shell on entering the directory" },
  { path: ".config/direnv/**", source: "direnv: direnvrc is sourced by every .envrc" },
  { path: ".cargo/config.toml", source: "Cargo: rustc-wrapper, runner and aliases run commands (Cargo book, configuration)" },
  { path: ".cargo/config", source: "Cargo (older name): same keys as config.toml" },
  { path: ".gitconfig", source: "git global config: aliases, core.pager, credential helpers run commands" },
  { path: ".config/git/config", source: "git global config (XDG location)" },
  { path: ".ssh/config", source: "OpenSSH: ProxyCommand and LocalCommand run commands (ssh_config(5))" },
  { path: ".ssh/authorized_keys", source: "OpenSSH: who may log in, and command= options" },
  { path: ".ssh/rc", source: "OpenSSH: run at every login (sshd(8))" },
  { path: ".mcp.json", source: "MCP server commands start with the agent (Claude Code project MCP config)" },
  { path: ".vscode/tasks.json", source: "VS Code: tasks can run on folder open" },
  { path: ".vscode/settings.json", source: "VS Code: terminal and tool paths run commands" },
  { path: ".vscode/mcp.json", source: "VS Code: MCP server commands" },
  { path: ".claude/settings.json", source: "Claude Code: hooks run commands, permissions widen" },
  { path: ".claude/settings.local.json", source: "Claude Code: hooks run commands, permissions widen" },
  { path: ".codex/config.toml", source: "Codex CLI: MCP servers and sandbox settings" },
  { path: ".gemini/settings.json", source: "Gemini CLI: MCP servers and tool settings" },
  { path: ".cursor/mcp.json", source: "Cursor: MCP server commands" },
  ...[
    ".bashrc",
    ".bash_profile",
    ".bash_login",
    ".bash_logout",
    ".profile",
    ".zshrc",
    ".zshenv",
    ".zprofile",
    ".zlogin",
    ".zlogout",
    ".kshrc",
    ".cshrc",
    ".tcshrc",
  ].map(
    (name): ProtectedConfigEntry => ({
      path: name,
      source: "shell start-up files run in every new shell (bash(1) INVOCATION, zsh(1) STARTUP FILES)",
    }),
  ),
  { path: ".config/fish/**", source: "fish: config.fish and conf.d run in every new shell" },
  { path: ".tmux.conf", source: "tmux: run-shell and if-shell run commands" },
  { path: ".config/autostart/**", homeOnly: true, source: "XDG autostart: run at login" },
  { path: ".config/systemd/user/**", homeOnly: true, source: "systemd user units: run at login or on timers" },
  { path: ".local/bin/**", homeOnly: true, source: "on PATH before the system: a file there shadows a command" },
];

/**
 * Matches paths against entries like `PROTECTED_CONFIG`'s: segments at any depth, compared
 * case-insensitively, a `*` inside a segment matching any run of characters (`jest.config.*`), a
 * trailing `/**` covering everything below; `homeOnly` entries only directly below the home directory.
 */
export function configEntryMatcher(entries: readonly ProtectedConfigEntry[]): (absolutePath: string) => string | undefined {
  const compiled = entries.map((entry) => {
    const below = entry.path.endsWith("/**");
    const parts = (below ? entry.path.slice(0, -3) : entry.path)
      .toLowerCase()
      .split("/")
      .filter(Boolean)
      .map((part) => (part.includes("*") ? shellGlobToRegExp(part) : part));
    return { parts, below, homeOnly: entry.homeOnly ?? false, source: entry.source };
  });
  const matches = (part: string | RegExp, segment: string | undefined) =>
    segment !== undefined && (typeof part === "string" ? part === segment : part.test(segment));
  return (path) => {
    const segments = path.toLowerCase().split(sep).filter(Boolean);
    const home = homedir().toLowerCase();
    for (const entry of compiled) {
      for (let start = 0; start + entry.parts.length <= segments.length; start++) {
        if (!entry.parts.every((part, offset) => matches(part, segments[start + offset]))) continue;
        const end = start + entry.parts.length;
        // A file entry names the last segment; a `/**` entry covers the directory and everything below.
        if (!entry.below && end !== segments.length) continue;
        if (entry.homeOnly && `/${segments.slice(0, start).join("/")}` !== home) continue;
        return entry.source;
      }
    }
    return undefined;
  };
}

const protectedSource = configEntryMatcher(PROTECTED_CONFIG);

/**
 * Why writing `absolutePath` would change configuration that runs code (judged on the path and on
 * its real path, so a symlink to `.git/config` counts), or undefined. For the Bash analysis as for
 * Write and Edit: a decision on such a path is `{ behavior: "ask", alwaysAsk: true }`.
 *
 * @example protectedConfigProblem("/repo/.git/hooks/pre-commit") // "git hooks run on commit, …"
 */
export function protectedConfigProblem(absolutePath: string, cwd: string = process.cwd()): string | undefined {
  return configProblem(absolutePath, cwd, protectedSource, "protected configuration");
}

/** Why `absolutePath` (as written, or its real path) matches `source`'s entries, naming them `what`. */
export function configProblem(
  absolutePath: string,
  cwd: string,
  source: (path: string) => string | undefined,
  what: string,
): string | undefined {
  const written = resolve(cwd, absolutePath);
  const real = resolveRealPath(written, cwd);
  for (const candidate of new Set([written, real])) {
    const reason = source(candidate);
    if (reason !== undefined)
      return candidate === written ? `${written} is ${what}: ${reason}` : `${written} leads to ${real}, ${what}: ${reason}`;
  }
  return undefined;
}
