import { readFileSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";
import { AgentToolsError } from "../../errors.js";
import { toPermissionRule, type PermissionRuleInput } from "../rule-input.js";
import { PermissionBehavior, PermissionMode, type PermissionRule } from "../types.js";
import { KNOWN_MODE_NAMES, parseModeName } from "./mode-names.js";
import { LAYER_SOURCE, settingsFiles, type SettingsFile, type SettingsLayer, type SettingsLocations } from "./settings-layers.js";

/** Settings given in code: the most specific layer. */
export interface CodePermissionSettings {
  mode?: PermissionMode;
  workingDirectories?: string[];
  allow?: PermissionRuleInput[];
  ask?: PermissionRuleInput[];
  deny?: PermissionRuleInput[];
}

export interface LoadPermissionSettingsOptions extends SettingsLocations {
  code?: CodePermissionSettings;
}

/** One problem found while loading; `rule` is set when a single rule is at fault. */
export interface PermissionSettingsIssue {
  layer: SettingsLayer;
  /** The settings file, or "code". */
  file: string;
  rule?: string;
  message: string;
}

/** The merged settings, shaped to be passed straight to `new PermissionEngine(...)`. */
export interface PermissionSettings {
  mode: PermissionMode;
  /** The layer that chose the mode ("default" when none did). */
  modeFrom: SettingsLayer | "default";
  workingDirectories: string[];
  /**
   * The project that relative rule paths resolve against: `projectDir` when given, else the folder
   * whose project or local settings file was read; undefined when neither (the engine then uses
   * its first working directory).
   */
  projectRoot: string | undefined;
  allow: PermissionRule[];
  ask: PermissionRule[];
  deny: PermissionRule[];
  /** The files read (missing files are simply skipped). */
  filesRead: string[];
  issues: PermissionSettingsIssue[];
}

type RuleLists = Pick<PermissionSettings, "allow" | "ask" | "deny">;
const BEHAVIORS = [PermissionBehavior.ALLOW, PermissionBehavior.ASK, PermissionBehavior.DENY] as const;

/**
 * Reads `~/.agent-tools/settings.json` (user), `.agent-tools/settings.json` (project) and
 * `.agent-tools/settings.local.json` (local), then `code`. Precedence, as in Claude Code: rules of
 * every layer are combined and the engine checks deny, then ask, then allow rules, so a deny rule in
 * any layer beats an allow rule in any other; the mode comes from the most specific layer that sets
 * one (code > local > project > user); working directories are combined. Every malformed file, field
 * or rule is collected in `issues` with its file and rule; valid rules are still loaded.
 *
 * File format (the `permissions` block of a Claude Code settings file):
 * `{"permissions": {"allow": ["Bash(npm run test:*)"], "ask": [], "deny": ["Read(./.env)"],
 *   "defaultMode": "accept_edits", "additionalDirectories": ["../shared"]}}`
 */
export function loadPermissionSettings(options: LoadPermissionSettingsOptions = {}): PermissionSettings {
  const settings: PermissionSettings = {
    mode: PermissionMode.DEFAULT,
    modeFrom: "default",
    workingDirectories: [],
    projectRoot: options.projectDir,
    allow: [],
    ask: [],
    deny: [],
    filesRead: [],
    issues: [],
  };
  for (const file of settingsFiles(options)) {
    readSettingsFile(file, settings);
    if (file.layer !== "user" && settings.filesRead.includes(file.path)) settings.projectRoot ??= file.baseDir;
  }
  if (options.code) applyCodeSettings(options.code, settings);
  return settings;
}

function readSettingsFile(file: SettingsFile, settings: PermissionSettings): void {
  let text: string;
  try {
    text = readFileSync(file.path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
    settings.issues.push({ layer: file.layer, file: file.path, message: `cannot read the settings file: ${(error as Error).message}` });
    return;
  }
  settings.filesRead.push(file.path);
  const issue = issueReporter(settings, file.layer, file.path);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    issue(`not valid JSON: ${(error as Error).message}`);
    return;
  }
  if (!isObject(parsed)) return issue('the file must hold a JSON object like {"permissions": {...}}');
  const permissions = parsed["permissions"];
  if (permissions === undefined) return;
  if (!isObject(permissions)) return issue('"permissions" must be an object with allow, ask, deny, defaultMode, additionalDirectories');
  for (const behavior of BEHAVIORS) {
    const list = permissions[behavior];
    if (list === undefined) continue;
    if (!Array.isArray(list)) {
      issue(`"permissions.${behavior}" must be an array of rule strings`);
      continue;
    }
    addRules(list, behavior, file.layer, file.path, settings, issue);
  }
  if (permissions["defaultMode"] !== undefined) {
    const mode = parseModeName(permissions["defaultMode"]);
    if (mode === undefined)
      issue(
        `"permissions.defaultMode" ${JSON.stringify(permissions["defaultMode"])} is not a mode; use one of ${KNOWN_MODE_NAMES.join(", ")}`,
      );
    else setMode(settings, mode, file.layer);
  }
  const directories = permissions["additionalDirectories"];
  if (directories === undefined) return;
  if (!Array.isArray(directories) || !directories.every((entry) => typeof entry === "string")) {
    return issue('"permissions.additionalDirectories" must be an array of paths');
  }
  for (const directory of directories) addDirectory(settings, resolveDirectory(directory, file));
}

function applyCodeSettings(code: CodePermissionSettings, settings: PermissionSettings): void {
  const issue = issueReporter(settings, "code", "code");
  for (const behavior of BEHAVIORS) addRules(code[behavior] ?? [], behavior, "code", "code", settings, issue);
  if (code.mode !== undefined) {
    const mode = parseModeName(code.mode);
    if (mode === undefined) issue(`mode ${JSON.stringify(code.mode)} is not a mode; use one of ${KNOWN_MODE_NAMES.join(", ")}`);
    else setMode(settings, mode, "code");
  }
  for (const directory of code.workingDirectories ?? []) addDirectory(settings, directory);
}

function addRules(
  list: readonly unknown[],
  behavior: keyof RuleLists,
  layer: SettingsLayer,
  where: string,
  settings: PermissionSettings,
  issue: ReportIssue,
): void {
  for (const entry of list) {
    try {
      settings[behavior].push(toPermissionRule(entry as PermissionRuleInput, behavior, LAYER_SOURCE[layer], where));
    } catch (error) {
      if (!(error instanceof AgentToolsError)) throw error;
      issue(error.message, typeof entry === "string" ? entry : JSON.stringify(entry));
    }
  }
}

type ReportIssue = (message: string, rule?: string) => void;

function issueReporter(settings: PermissionSettings, layer: SettingsLayer, file: string): ReportIssue {
  return (message, rule) => {
    settings.issues.push({ layer, file, message, ...(rule === undefined ? {} : { rule }) });
  };
}

function setMode(settings: PermissionSettings, mode: PermissionMode, layer: SettingsLayer): void {
  settings.mode = mode;
  settings.modeFrom = layer;
}

function addDirectory(settings: PermissionSettings, directory: string): void {
  if (!settings.workingDirectories.includes(directory)) settings.workingDirectories.push(directory);
}

function resolveDirectory(directory: string, file: SettingsFile): string {
  const expanded = directory === "~" || directory.startsWith("~/") ? join(file.homeDir, directory.slice(1)) : directory;
  return isAbsolute(expanded) ? expanded : resolve(file.baseDir, expanded);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
