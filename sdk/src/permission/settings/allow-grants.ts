import { PermissionRuleError } from "../errors.js";
import { formatRule, parseRule } from "../rule-syntax.js";
import { PermissionBehavior } from "../types.js";
import { loadPermissionSettings } from "./load-permission-settings.js";
import { isObject } from "./project-trust.js";
import { readSettingsDocument, writeSettingsDocument } from "./settings-document.js";
import { LAYER_SOURCE, settingsFiles, type SettingsLayer, type SettingsLocations } from "./settings-layers.js";

/** An "always allow" grant: an allow rule in a settings file, and whether it applies. */
export interface AllowGrant {
  rule: string;
  layer: Exclude<SettingsLayer, "code">;
  file: string;
  /** False for a rule of an untrusted folder's file: listed there, but not applied. */
  applied: boolean;
}

/**
 * Every allow rule of the user, project and local settings files (docs/permissions.md#grants),
 * with where it lives and whether it applies (a project file's only once its folder is trusted).
 */
export function listAllowGrants(locations: SettingsLocations = {}): AllowGrant[] {
  const all = loadPermissionSettings({ ...locations, trustProjectSettings: true });
  const trusted = loadPermissionSettings(locations).projectTrust.trusted;
  const layers = settingsFiles(locations).filter((file) => all.filesRead.includes(file.path));
  return layers.flatMap((file) =>
    all.allow
      .filter((rule) => rule.source === LAYER_SOURCE[file.layer])
      .map((rule) => ({ rule: formatRule(rule), layer: file.layer, file: file.path, applied: file.layer === "user" || trusted })),
  );
}

/**
 * Removes the allow rule from the settings files that hold it (every layer, or those named), as
 * written or in another spelling of the same rule; returns the files changed. The rest of each
 * file is kept as it was.
 */
export async function revokeAllowRule(
  rule: string,
  locations: SettingsLocations = {},
  layers?: readonly Exclude<SettingsLayer, "code">[],
): Promise<string[]> {
  const target = formatRule(parseRule(rule, PermissionBehavior.ALLOW));
  const changed: string[] = [];
  for (const file of settingsFiles(locations)) {
    if (layers !== undefined && !layers.includes(file.layer)) continue;
    const document = await readSettingsDocument(file.path);
    const permissions = document.permissions;
    if (!isObject(permissions) || !Array.isArray(permissions.allow)) continue;
    const kept = permissions.allow.filter((entry) => !(typeof entry === "string" && sameRule(entry, target)));
    if (kept.length === permissions.allow.length) continue;
    document.permissions = { ...permissions, allow: kept };
    await writeSettingsDocument(file.path, document);
    changed.push(file.path);
  }
  return changed;
}

function sameRule(entry: string, target: string): boolean {
  try {
    return formatRule(parseRule(entry, PermissionBehavior.ALLOW)) === target;
  } catch (error) {
    if (error instanceof PermissionRuleError) return false;
    throw error;
  }
}
