import { createHash } from "node:crypto";
import { readFileSync, realpathSync } from "node:fs";
import { resolve } from "node:path";
import { PermissionMode } from "../types.js";
import type { SettingsFile } from "./settings-layers.js";

/**
 * Whether the settings files in a working folder may raise permissions (docs/permissions.md#trusted-folders).
 * A cloned repository ships its own `.agent-tools/settings.json`: until the user trusts the folder,
 * its files may restrict (deny and ask rules, a stricter mode) but not raise (allow rules, a more
 * permissive mode, more working directories). The trust is recorded in the user's settings, keyed
 * by the folder's real path, with a digest of the project files, so any change asks again.
 */
export interface ProjectTrust {
  /** The project folder's real path: the key of its trust record. */
  folder: string;
  /** `sha256:<hex>` over the project and local settings files as they are now. */
  digest: string;
  /** The user trusts this folder with exactly these files (or the program vouched for it). */
  trusted: boolean;
  /** What the project files raise: applied when `trusted`, withheld otherwise. */
  raises: RaisedSetting[];
}

/** One setting of a project file that would grant more than the user's own settings do. */
export interface RaisedSetting {
  file: string;
  /** In words: `allow rule "Bash"`, `defaultMode "bypassPermissions" (from default to bypass)`. */
  setting: string;
}

/** A folder the user trusts, as the user settings file keeps it under `trustedFolders`. */
export interface TrustedFolderRecord {
  digest: string;
  trustedAt?: string;
}

/** The key of the user settings file that holds the trusted folders (real path → record). */
export const TRUSTED_FOLDERS_KEY = "trustedFolders";

/**
 * How much a mode lets run without a person saying yes: EXPLORE only reads, DEFAULT asks for the
 * rest, DONT_ASK and ACCEPT_EDITS both allow edits inside the working directories (one refuses what
 * the other asks about), BYPASS allows everything not protected.
 */
const MODE_RANK: Record<PermissionMode, number> = {
  [PermissionMode.EXPLORE]: 0,
  [PermissionMode.DEFAULT]: 1,
  [PermissionMode.DONT_ASK]: 2,
  [PermissionMode.ACCEPT_EDITS]: 2,
  [PermissionMode.BYPASS]: 3,
};

/** Whether `mode` would let something run unasked that `base` does not. */
export function modeRaises(mode: PermissionMode, base: PermissionMode): boolean {
  return MODE_RANK[mode] > MODE_RANK[base];
}

/** The real path of the project folder (as written when it does not exist). */
export function projectFolderKey(projectDir: string): string {
  try {
    return realpathSync(projectDir);
  } catch {
    return resolve(projectDir);
  }
}

/** `sha256:<hex>` over the project layer files' bytes, a missing file counting as absent (not as empty). */
export function projectSettingsDigest(files: readonly SettingsFile[]): string {
  const hash = createHash("sha256").update("agent-tools-project-settings-v1\n");
  for (const file of files) {
    let bytes: Buffer | undefined;
    try {
      bytes = readFileSync(file.path);
    } catch {
      bytes = undefined;
    }
    hash.update(`${file.layer}\n${bytes === undefined ? "-" : String(bytes.length)}\n`);
    if (bytes !== undefined) hash.update(bytes);
  }
  return `sha256:${hash.digest("hex")}`;
}

/** The user settings' `trustedFolders` record for `folder`, if it is well formed. */
export function trustedRecord(userDocument: unknown, folder: string): TrustedFolderRecord | undefined {
  const records = isObject(userDocument) ? userDocument[TRUSTED_FOLDERS_KEY] : undefined;
  if (!isObject(records) || !Object.hasOwn(records, folder)) return undefined;
  const record = records[folder];
  return isObject(record) && typeof record.digest === "string" ? (record as unknown as TrustedFolderRecord) : undefined;
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
