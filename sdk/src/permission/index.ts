// `@agent-tools/sdk/permission`: the permission engine, its rules and settings files (docs/permissions.md).
export { PermissionModeError, PermissionRuleError, PermissionSettingsError } from "./errors.js";
export { PermissionEngine, type PermissionAnswer, type PermissionEngineOptions, type PermissionResult } from "./permission-engine.js";
export { parseDecisionLog, type DecisionRecord } from "./decision-log.js";
export type { PermissionSubject, ToolOrigin } from "./permission-subject.js";
export { toPermissionRule, type PermissionRuleInput } from "./rule-input.js";
export { formatRule, parseRule } from "./rule-syntax.js";
export {
  PermissionBehavior,
  PermissionMode,
  type PermissionContext,
  type PermissionDecision,
  type PermissionRule,
  type RuleMatchContext,
  type RulesByTool,
} from "./types.js";
export {
  loadPermissionSettings,
  type CodePermissionSettings,
  type LoadPermissionSettingsOptions,
  type PermissionSettings,
  type PermissionSettingsIssue,
} from "./settings/load-permission-settings.js";
export { KNOWN_MODE_NAMES, parseModeName } from "./settings/mode-names.js";
export { TRUSTED_FOLDERS_KEY, type ProjectTrust, type RaisedSetting } from "./settings/project-trust.js";
export { listTrustedFolders, trustProjectFolder, untrustProjectFolder, type TrustedFolder } from "./settings/trusted-folders.js";
export { listAllowGrants, revokeAllowRule, type AllowGrant } from "./settings/allow-grants.js";
export {
  LAYER_SOURCE,
  SETTINGS_LAYERS,
  settingsFiles,
  type SettingsFile,
  type SettingsLayer,
  type SettingsLocations,
} from "./settings/settings-layers.js";
export type { PermissionErrorCode } from "../error-codes.js";
