import { readFileSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";
import { AgentToolsError } from "../../errors.js";
import { toPermissionRule, type PermissionRuleInput } from "../rule-input.js";
import { formatRule } from "../rule-syntax.js";
import { PermissionBehavior, PermissionMode, type PermissionRule } from "../types.js";
import { KNOWN_MODE_NAMES, parseModeName } from "./mode-names.js";
import {
  isObject,
  modeRaises,
  projectFolderKey,
  projectSettingsDigest,
  trustedRecord,
  TRUSTED_FOLDERS_KEY,
  type ProjectTrust,
  type RaisedSetting,
} from "./project-trust.js";
import { LAYER_SOURCE, settingsFiles, type SettingsFile, type SettingsLayer, type SettingsLocations } from "./settings-layers.js";

/** Settings given in code: the most specific layer. */
export interface CodePermissionSettings {
  mode?: PermissionMode;
  /** Append every decision to this JSONL file (docs/permissions.md#decision-log). */
  decisionLog?: string;
  workingDirectories?: string[];
  allow?: PermissionRuleInput[];
  ask?: PermissionRuleInput[];
  deny?: PermissionRuleInput[];
}

export interface LoadPermissionSettingsOptions extends SettingsLocations {
  code?: CodePermissionSettings;
  /**
   * The program vouches for the project folder (it made it, or asked the user itself), so its
   * files may raise permissions. Default false: only a trust record in the user's settings lets
   * them (`agent-tools permissions trust`, docs/permissions.md#trusted-folders).
   */
  trustProjectSettings?: boolean;
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
  /** The settings file behind each rule source (`projectSettings` → its path), so a decision can name the file its rule came from. */
  settingsFiles: Record<string, string>;
  /** Whether the project folder's files may raise permissions, and what they raise (docs/permissions.md#trusted-folders). */
  projectTrust: ProjectTrust;
  /** Where the engine appends its decisions (`permissions.decisionLog`), if a settings layer that may choose it says so. */
  decisionLog: string | undefined;
  issues: PermissionSettingsIssue[];
}

/** How a project layer's settings are let in: what it raises is recorded, and applied only when trusted. */
interface LayerGate {
  trusted: boolean;
  /** The mode the user's own settings give: a project mode above it raises. */
  base: PermissionMode;
  raises: RaisedSetting[];
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
 * The project and local files live in the working folder, so a cloned repository can ship them:
 * until the user trusts the folder (a record in the user file, keyed by the folder's real path and
 * a digest of both files), their deny and ask rules and a stricter mode apply, and what would raise
 * permissions (allow rules, a more permissive mode, more directories) is only listed in
 * `projectTrust.raises`.
 *
 * File format (the `permissions` block of a Claude Code settings file):
 * `{"permissions": {"allow": ["Bash(npm run test:*)"], "ask": [], "deny": ["Read(./.env)"],
 *   "defaultMode": "accept_edits", "additionalDirectories": ["../shared"]}}`
 */
export function loadPermissionSettings(options: LoadPermissionSettingsOptions = {}): PermissionSettings {
  const [userFile, ...layers] = settingsFiles(options);
  // Run from the home folder, the project file is the user's own file: it is read once, as the user's.
  const projectFiles = layers.filter((file) => projectFolderKey(file.path) !== projectFolderKey(userFile!.path));
  const folder = projectFolderKey(layers[0]!.baseDir);
  const digest = projectSettingsDigest(projectFiles);
  const settings: PermissionSettings = {
    mode: PermissionMode.DEFAULT,
    modeFrom: "default",
    workingDirectories: [],
    projectRoot: options.projectDir,
    allow: [],
    ask: [],
    deny: [],
    filesRead: [],
    settingsFiles: {},
    projectTrust: { folder, digest, trusted: options.trustProjectSettings === true, raises: [] },
    decisionLog: undefined,
    issues: [],
  };
  const userDocument = readSettingsFile(userFile!, settings, undefined);
  checkTrustedFolders(userDocument, userFile!, settings);
  settings.projectTrust.trusted ||= trustedRecord(userDocument, folder)?.digest === digest;
  const gate: LayerGate = { trusted: settings.projectTrust.trusted, base: settings.mode, raises: settings.projectTrust.raises };
  for (const file of projectFiles) {
    readSettingsFile(file, settings, gate);
    if (settings.filesRead.includes(file.path)) settings.projectRoot ??= file.baseDir;
  }
  if (options.code) applyCodeSettings(options.code, settings);
  return settings;
}

/** Reads one layer's file into `settings` (a project layer through `gate`); returns the parsed document. */
function readSettingsFile(file: SettingsFile, settings: PermissionSettings, gate: LayerGate | undefined): unknown {
  let text: string;
  try {
    text = readFileSync(file.path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    settings.issues.push({ layer: file.layer, file: file.path, message: `cannot read the settings file: ${(error as Error).message}` });
    return undefined;
  }
  settings.filesRead.push(file.path);
  settings.settingsFiles[LAYER_SOURCE[file.layer]] = file.path;
  const issue = issueReporter(settings, file.layer, file.path);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    issue(`not valid JSON: ${(error as Error).message}`);
    return undefined;
  }
  if (!isObject(parsed)) return void issue('the file must hold a JSON object like {"permissions": {...}}');
  const permissions = parsed["permissions"];
  if (permissions === undefined) return parsed;
  if (!isObject(permissions))
    return void issue('"permissions" must be an object with allow, ask, deny, defaultMode, additionalDirectories');
  /** Applies a setting of this file unless it raises permissions in an untrusted project layer. */
  const raising = (setting: string): boolean => {
    if (gate === undefined) return true;
    gate.raises.push({ file: file.path, setting });
    return gate.trusted;
  };
  for (const behavior of BEHAVIORS) {
    const list = permissions[behavior];
    if (list === undefined) continue;
    if (!Array.isArray(list)) {
      issue(`"permissions.${behavior}" must be an array of rule strings`);
      continue;
    }
    addRules(list, behavior, file.layer, file.path, settings, issue, behavior === "allow" ? raising : undefined);
  }
  if (permissions["defaultMode"] !== undefined) {
    const mode = parseModeName(permissions["defaultMode"]);
    if (mode === undefined)
      issue(
        `"permissions.defaultMode" ${JSON.stringify(permissions["defaultMode"])} is not a mode; use one of ${KNOWN_MODE_NAMES.join(", ")}`,
      );
    else if (
      gate === undefined ||
      !modeRaises(mode, gate.base) ||
      raising(`defaultMode ${JSON.stringify(permissions["defaultMode"])} (raises the mode from ${gate.base} to ${mode})`)
    )
      setMode(settings, mode, file.layer);
  }
  const log = permissions["decisionLog"];
  if (log !== undefined) {
    if (typeof log !== "string" || log === "") issue('"permissions.decisionLog" must be the path of a file');
    else if (raising(`decisionLog ${JSON.stringify(log)} (where every decision is written)`))
      settings.decisionLog = resolveDirectory(log, file);
  }
  const directories = permissions["additionalDirectories"];
  if (directories === undefined) return parsed;
  if (!Array.isArray(directories) || !directories.every((entry) => typeof entry === "string")) {
    issue('"permissions.additionalDirectories" must be an array of paths');
    return parsed;
  }
  for (const directory of directories)
    if (raising(`additionalDirectories ${JSON.stringify(directory)}`)) addDirectory(settings, resolveDirectory(directory, file));
  return parsed;
}

/** The user file's `trustedFolders`, when present, must map folders to records with a digest. */
function checkTrustedFolders(document: unknown, file: SettingsFile, settings: PermissionSettings): void {
  const records = isObject(document) ? document[TRUSTED_FOLDERS_KEY] : undefined;
  if (records === undefined) return;
  const valid = isObject(records) && Object.values(records).every((record) => isObject(record) && typeof record.digest === "string");
  if (!valid)
    issueReporter(
      settings,
      file.layer,
      file.path,
    )(
      `"${TRUSTED_FOLDERS_KEY}" must map folders to {"digest": "sha256:…"}; ` +
        `run \`agent-tools permissions trust <folder>\` instead of editing it`,
    );
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
  if (code.decisionLog !== undefined) settings.decisionLog = code.decisionLog;
}

function addRules(
  list: readonly unknown[],
  behavior: keyof RuleLists,
  layer: SettingsLayer,
  where: string,
  settings: PermissionSettings,
  issue: ReportIssue,
  raising?: (setting: string) => boolean,
): void {
  for (const entry of list) {
    try {
      const rule = toPermissionRule(entry as PermissionRuleInput, behavior, LAYER_SOURCE[layer], where);
      if (raising === undefined || raising(`${behavior} rule ${JSON.stringify(formatRule(rule))}`)) settings[behavior].push(rule);
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
