import { isAbsolute, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import {
  PermissionBehavior,
  PermissionMode,
  rulesOfTool,
  type PermissionContext,
  type PermissionDecision,
} from "../../permission/types.js";
import { expandHome } from "../../permission/working-directories.js";
import { isDangerousPath, mayContainDangerousPath, mayExpandToDangerousPath, type DangerousPathLists } from "../paths/dangerous-paths.js";
import { protectedConfigProblem } from "../paths/protected-config.js";
import { runsLaterProblem } from "../paths/runs-later.js";
import { treeSecret, type TreeReading } from "../paths/tree-secrets.js";
import { gitRepositoryProblem } from "./git-config-hazards.js";
import type { BashAnalysis } from "./bash-analysis.js";
import { allowCoverage, ruleMatchesAnyCommand } from "./bash-rules.js";
import { editsStayInside } from "./contained-edits.js";
import { editTargets, type EditTargets } from "./edit-targets.js";
import { pathRuleVerdict } from "./path-rule-verdict.js";
import type { ShellWord } from "./shell-word.js";

export interface BashPermissionOptions {
  /** Where the command runs; relative paths resolve against it. */
  cwd: string;
  dangerousPaths: DangerousPathLists;
  /** The tool name rules are filed under. */
  toolName: string;
  /**
   * When commands run in the OS sandbox without network: the only directories they can write.
   * Edits inside them are then auto-allowed in every mode (the sandbox bounds the rest).
   */
  sandboxWritable?: readonly string[] | undefined;
}

const immuneAsk = (message: string, reason: string): PermissionDecision => ({
  behavior: PermissionBehavior.ASK,
  message: `Permission required: ${message}`,
  reason: `Safety check: ${reason}`,
  bypassImmune: true,
});

interface SensitivePaths {
  written: string[];
  read: string[];
  /** Writes to configuration that runs code (`.agent-tools/`, `.git/hooks/`, `.npmrc`, rc files): asked in every mode. */
  protectedWrites: string[];
  /** Why a read-only git command may run a program its repository configures. */
  gitConfig: string | undefined;
}

/**
 * One engine decision asks for the same analysis up to three times (read-only fast path, own
 * check, suggestions); the file system is consulted once per second per analysis at most.
 */
const SENSITIVE_PATHS_TTL_MS = 1000;
const sensitivePathsCache = new WeakMap<BashAnalysis, { at: number; options: BashPermissionOptions; paths: SensitivePaths }>();

/**
 * Sensitive paths a command reads or writes (by written and by real path) and repository settings that run
 * programs, for the ASK message.
 */
export function sensitivePaths(analysis: BashAnalysis, options: BashPermissionOptions): SensitivePaths {
  const cached = sensitivePathsCache.get(analysis);
  if (cached && cached.options === options && performance.now() - cached.at < SENSITIVE_PATHS_TTL_MS) return cached.paths;
  const paths = findSensitivePaths(analysis, options);
  sensitivePathsCache.set(analysis, { at: performance.now(), options, paths });
  return paths;
}

function findSensitivePaths(analysis: BashAnalysis, options: BashPermissionOptions): SensitivePaths {
  const written = new Set<string>();
  const read = new Set<string>();
  const protectedWrites = new Set<string>();
  const check = (word: ShellWord | undefined, access: "read" | "write", knownPath = true) => {
    if (word === undefined) return;
    const found = access === "write" ? written : read;
    // `cat "$(…)"`, `cat $FILE`: the whole path is only known at run time, so it may name any secret.
    if (knownPath && word.value === undefined && (word.pattern ?? "*") === "*" && !isBoundedLoopVariable(word, analysis)) {
      found.add(`${word.text} (a path only known at run time)`);
      return;
    }
    const value = word.value ?? word.pattern;
    if (value === undefined || value.length === 0) return;
    if (access === "write" && word.value !== undefined) {
      for (const directory of analysis.directories) {
        const problem = directory === undefined ? undefined : protectedConfigProblem(resolve(directory, expandHome(word.value)), directory);
        if (problem) protectedWrites.add(problem);
      }
    }
    for (const directory of analysis.directories) {
      // After `cd $X` or `env -C dir`, a relative path may name anything.
      if (directory === undefined) {
        if (!isAbsolute(value) && !value.startsWith("~")) found.add(`${word.text} (relative to a directory only known at run time)`);
        continue;
      }
      if (
        word.value === undefined
          ? mayHoldDangerousPath(value, options.dangerousPaths, directory, access)
          : word.expands
            ? mayExpandToDangerousPath(value, options.dangerousPaths, directory, access)
            : isDangerousPath(value, options.dangerousPaths, directory, access)
      ) {
        found.add(word.value ?? word.text);
      }
    }
  };
  const checkRecursive = (word: ShellWord, reading: TreeReading) => {
    for (const directory of analysis.directories) {
      if (directory === undefined) continue;
      if (containsSecretLocations(word, options.dangerousPaths, directory)) {
        read.add(`${word.text} (searched recursively)`);
        continue;
      }
      // Below the root: a project's `.env`, `certs/server.pem`, a symlink to `~/.ssh` (as the command walks).
      const secret = treeSecret(resolve(directory, expandHome(staticRoot(word))), options.dangerousPaths, reading);
      if (secret !== undefined) read.add(`${word.text} (searched recursively: ${secret})`);
    }
  };
  const loopItems = analysis.script?.loopItems ?? [];
  const everyCommandReads = analysis.commands.every((command) => command.readOnlyProblem === undefined);
  for (const command of analysis.commands) {
    // Words the spec names as paths count even when wholly unknown; other words only when they look like paths.
    const specPaths = new Set(command.parsed?.paths ?? []);
    for (const word of command.pathArguments)
      check(word, command.readOnlyProblem === undefined || command.sourceArguments.includes(word) ? "read" : "write", specPaths.has(word));
    // A root from a variable (`for d in ~; do grep -r x $d; done`) may be any loop item. Trees
    // are only walked when every command reads: otherwise the string asks anyway.
    if (!everyCommandReads) continue;
    for (const root of command.recursiveRoots)
      for (const word of [root, ...(root.value === undefined ? loopItems : [])]) checkRecursive(word, command.treeReading);
  }
  for (const redirect of analysis.script?.redirects ?? []) {
    if (redirect.kind === "write" || redirect.kind === "read") check(redirect.target, redirect.kind);
  }
  for (const item of loopItems) check(item, "read");
  return { written: [...written], read: [...read], protectedWrites: [...protectedWrites], gitConfig: gitConfigProblem(analysis) };
}

/** `$f` in `for f in *.ts; do wc -l $f; done`: its values are the loop's items, which are checked themselves. */
function isBoundedLoopVariable(word: ShellWord, analysis: BashAnalysis): boolean {
  const name = /^"?\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?"?$/.exec(word.text)?.[1];
  const script = analysis.script;
  if (name === undefined || script === undefined) return false;
  return script.loopVariables.includes(name) && script.loopItems.every((item) => item.value !== undefined);
}

/**
 * A word with variables (`$HOME/.ssh/id_rsa`, `/proc/$$/environ`): its pattern is checked where it
 * stands, and, when it starts with a variable that may hold an absolute path, from the root too.
 */
function mayHoldDangerousPath(pattern: string, lists: DangerousPathLists, directory: string, access: "read" | "write"): boolean {
  if (mayExpandToDangerousPath(pattern, lists, directory, access)) return true;
  return pattern.startsWith("*") && mayExpandToDangerousPath(`/${pattern}`, lists, directory, access);
}

/** For a recursive search (`grep -r x ~`): the static part of the root, then whether a secret lies below it. */
function containsSecretLocations(word: ShellWord, lists: DangerousPathLists, directory: string): boolean {
  return mayContainDangerousPath(staticRoot(word), lists, directory);
}

/** The root as written, or the static part of a glob or variable word (`src/*` → `src`). */
function staticRoot(word: ShellWord): string {
  return word.value !== undefined && !word.expands ? word.value : staticPrefix(word.value ?? word.pattern ?? "");
}

function staticPrefix(pattern: string): string {
  const glob = pattern.search(/[*?[{]/);
  if (glob < 0) return pattern;
  const slash = pattern.lastIndexOf("/", glob);
  return slash < 0 ? "." : pattern.slice(0, slash) || "/";
}

/** True when the string only reads: every command read-only, nothing assigned or redirected to a file, no secret read. */
export function isReadOnlyBash(analysis: BashAnalysis, options: BashPermissionOptions): boolean {
  if (analysis.unanalysable || analysis.dangerous || analysis.scriptProblem || analysis.commands.length === 0) return false;
  if (analysis.commands.some((command) => command.readOnlyProblem !== undefined)) return false;
  const paths = sensitivePaths(analysis, options);
  return paths.read.length === 0 && paths.written.length === 0 && paths.gitConfig === undefined;
}

/**
 * Why a git command that would otherwise only read may run a program its repository configures
 * (`core.fsmonitor`, `diff.external`, a pager…), checked in every directory it may run in.
 */
function gitConfigProblem(analysis: BashAnalysis): string | undefined {
  for (const command of analysis.commands) {
    // Every git command, read-only or not: an allow rule for `git log` must not pass a configured gpg or pager.
    if (command.resolved.name !== "git") continue;
    for (const directory of analysis.directories) {
      const problem = gitRepositoryProblem(command.resolved.args, directory);
      if (problem) return problem;
    }
  }
  return undefined;
}

/** Programs whose text argument is code: a problem there is a fact about the command, not a missing rule. */
const PROGRAM_TEXT_RULES = /^readonly\.(awk|gawk|mawk|nawk|sed|jq|yq)\.check$/;

/**
 * The Bash tool's own verdict. Facts about the whole command come first and no allow rule
 * silences them (bypass-immune ASK; a write to protected configuration or to a file that runs
 * later asks in every mode): it cannot be analysed, it reads a secret, git would run a program
 * its repository configures, a destructive pattern, program text that runs commands or writes, a
 * write to an unknown or sensitive target. Then: read-only → ALLOW; ACCEPT_EDITS and
 * DONT_ASK file commands inside the working directories → ALLOW; allow rules that cover every
 * command (and every command those run) → ALLOW, that cover only some → ASK!; otherwise PASSTHROUGH.
 * Each reason names the rule that decided (`readonly.*`, `fact.*`).
 */
export function decideBash(analysis: BashAnalysis, context: PermissionContext, options: BashPermissionOptions): PermissionDecision {
  if (analysis.command.trim() === "") return { behavior: PermissionBehavior.PASSTHROUGH, message: "Empty command" };
  if (analysis.unanalysable)
    return immuneAsk(
      analysis.unanalysable,
      "fact.unanalysable: command contains dynamic expansion or syntax that cannot be statically analyzed",
    );
  // `Read(path)` and `Edit(path)` deny and ask rules govern the paths the line reads and writes.
  const pathRule = pathRuleVerdict(analysis, context, options.cwd);
  if (pathRule?.behavior === "deny")
    return {
      behavior: PermissionBehavior.DENY,
      message: `Permission to use ${options.toolName} has been denied: the command touches ${pathRule.path}, which ${pathRule.rule} denies`,
      reason: `Rule: ${pathRule.rule}`,
    };
  if (pathRule?.behavior === "ask")
    return immuneAsk(`the command touches ${pathRule.path}, which ${pathRule.rule} asks for`, `Rule: ${pathRule.rule}`);
  if (isReadOnlyBash(analysis, options))
    return {
      behavior: PermissionBehavior.ALLOW,
      message: "Permission granted for read-only command",
      reason: `Read-only command (${analysis.commands.map((command) => command.readOnlyRule).join(", ")})`,
    };
  const paths = sensitivePaths(analysis, options);
  const targets = editTargets(analysis, options.cwd);
  // After `cd x` a relative path may be below any directory the line visits; after `cd $X`, anywhere (judged by name from `/`).
  const everyTargets = [targets, ...analysis.directories.slice(1).map((directory) => editTargets(analysis, directory ?? "/"))];
  const protectedWrites = new Set([...paths.protectedWrites, ...resolvedProblems(everyTargets, protectedConfigProblem)]);
  if (protectedWrites.size > 0) {
    return {
      ...immuneAsk(
        `Command writes protected configuration: ${[...protectedWrites].join("; ")}`,
        "fact.protected-config: configuration that runs code is asked for in every mode",
      ),
      alwaysAsk: true,
    };
  }
  const runsLater = new Set(resolvedProblems(everyTargets, runsLaterProblem));
  if (runsLater.size > 0) {
    return {
      ...immuneAsk(
        `Command writes files that run later: ${[...runsLater].join("; ")}`,
        "fact.runs-later: a file a tool runs by convention later (build scripts, " +
          "CI, test configuration, agent instructions) is asked for in every mode",
      ),
      alwaysAsk: true,
    };
  }
  if (paths.read.length > 0)
    return immuneAsk(`Command reads sensitive paths: ${paths.read.join(", ")}`, "fact.secret-read: the command reads a secret");
  if (paths.gitConfig)
    return immuneAsk(
      `git would run a program the repository configures: ${paths.gitConfig}`,
      "fact.repository-config: repository configuration runs programs",
    );

  const dangerous = analysis.dangerous ?? analysis.commands.find((command) => command.dangerous)?.dangerous;
  if (dangerous) return immuneAsk(`Command contains dangerous pattern: ${dangerous}`, "fact.dangerous: dangerous command");
  const programText = analysis.commands.find((command) => PROGRAM_TEXT_RULES.test(command.readOnlyRule));
  if (programText)
    return immuneAsk(`${programText.resolved.name}: ${programText.readOnlyProblem}`, `fact.program-text: ${programText.readOnlyRule}`);
  const unknownTarget = analysis.script?.redirects.find((redirect) => redirect.kind === "write" && redirect.target?.value === undefined);
  if (unknownTarget)
    return immuneAsk(
      `Command writes to ${unknownTarget.text.trim()}, a target only known at run time`,
      "fact.dynamic-redirect: dynamic redirect target",
    );
  if (paths.written.length > 0)
    return immuneAsk(
      `Command operates on sensitive paths: ${paths.written.join(", ")}`,
      "fact.sensitive-write: dangerous file or directory",
    );

  if (
    (context.mode === PermissionMode.ACCEPT_EDITS || context.mode === PermissionMode.DONT_ASK) &&
    editsStayInside(analysis, targets, [options.cwd, ...context.workingDirectories])
  ) {
    return {
      behavior: PermissionBehavior.ALLOW,
      message: "Permission granted: file operations inside the working directories",
      reason: `Mode: ${context.mode} (edit.inside-working-directories)`,
    };
  }
  if (options.sandboxWritable && editsStayInside(analysis, targets, options.sandboxWritable)) {
    return {
      behavior: PermissionBehavior.ALLOW,
      message: "Permission granted: file operations inside the sandbox's writable directories",
      reason: "Sandbox: edits stay inside its writable directories, with no network (sandbox.contained-edit)",
    };
  }

  const allowRules = rulesOfTool(context.allowRules, options.toolName);
  const allowContents = allowRules.map((rule) => rule.ruleContent).filter((content): content is string => !!content);
  // A whole-tool allow rule (`Bash`) covers everything: the engine applies it.
  if (allowContents.length > 0 && allowContents.length === allowRules.length) {
    const coverage = allowCoverage(allowContents, analysis);
    // Only a rule that covered a command grants anything: a line of read-only commands with a
    // redirect or a credential variable is judged as if there were no rules.
    const granted = coverage.used.length > 0;
    if (granted && coverage.complete && coverage.riders.length === 0)
      return {
        behavior: PermissionBehavior.ALLOW,
        message: `Permission granted for ${options.toolName}: every command matches an allow rule`,
        reason: `Rule: ${coverage.used.join(", ")}`,
      };
    if (coverage.riders.length > 0 && (granted || allowContents.some((content) => ruleMatchesAnyCommand(content, analysis))))
      return immuneAsk(
        `an allow rule covers only what it names: ${coverage.riders[0]}`,
        `rule.rider: an allow rule covers the command it matches and nothing that rides with it (${coverage.riders.join("; ")})`,
      );
    if (allowContents.some((content) => ruleMatchesAnyCommand(content, analysis))) {
      const first = coverage.uncovered[0]?.resolved.command.text ?? analysis.command;
      return immuneAsk(
        `'${first}' is not covered by any allow rule`,
        "rule.partial: an allow rule matches only part of a compound command",
      );
    }
  }
  return {
    behavior: PermissionBehavior.PASSTHROUGH,
    message: `Execute bash command: ${analysis.command}`,
    reason: analysis.commands.find((command) => command.readOnlyProblem !== undefined)?.readOnlyRule,
  };
}

/**
 * `check` applied to every path an edit writes, as written and as the kernel resolves it (`x/../hooks` where
 * x links into `.git/hooks`).
 */
function resolvedProblems(everyTargets: EditTargets[], check: (path: string, cwd: string) => string | undefined): string[] {
  return everyTargets
    .flatMap((targets) => targets.written)
    .flatMap(({ written, resolved }) =>
      [check(written, "/"), check(resolved, "/")].filter((problem): problem is string => problem !== undefined),
    );
}
