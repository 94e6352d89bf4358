import { loadPermissionSettings } from "./load-permission-settings.js";
import { isObject, TRUSTED_FOLDERS_KEY, type RaisedSetting, type TrustedFolderRecord } from "./project-trust.js";
import { readSettingsDocument, writeSettingsDocument } from "./settings-document.js";
import { settingsFiles, type SettingsLocations } from "./settings-layers.js";

/** A folder the user trusts, as `listTrustedFolders` returns it. */
export interface TrustedFolder extends TrustedFolderRecord {
  folder: string;
  /** Whether the folder's settings files are still the ones trusted (false once they changed: asked again). */
  current: boolean;
}

/**
 * Trusts the project folder's settings files as they are now (docs/permissions.md#trusted-folders):
 * writes `trustedFolders[<real path>] = {digest, trustedAt}` into the user's settings file, keeping
 * everything else in it. From then on the folder's files may raise permissions, until they change.
 * Returns the record and what the files raise, for the user to see.
 *
 * @example
 * const { raises } = await trustProjectFolder({ projectDir: "/src/app" });
 * for (const { file, setting } of raises) console.log(`${file}: ${setting}`);
 */
export async function trustProjectFolder(
  locations: SettingsLocations = {},
): Promise<{ folder: string; digest: string; raises: RaisedSetting[] }> {
  const { projectTrust } = loadPermissionSettings({ ...locations, trustProjectSettings: true });
  await editTrustedFolders(locations, (records) => {
    records[projectTrust.folder] = { digest: projectTrust.digest, trustedAt: new Date().toISOString() };
  });
  return { folder: projectTrust.folder, digest: projectTrust.digest, raises: projectTrust.raises };
}

/** Forgets the folder's trust record; false when there was none. */
export async function untrustProjectFolder(locations: SettingsLocations = {}): Promise<boolean> {
  const { projectTrust } = loadPermissionSettings({ ...locations, trustProjectSettings: true });
  let removed = false;
  await editTrustedFolders(locations, (records) => {
    removed = Object.hasOwn(records, projectTrust.folder);
    delete records[projectTrust.folder];
  });
  return removed;
}

/** The folders the user's settings trust, each with whether its files are still the trusted ones. */
export async function listTrustedFolders(locations: Pick<SettingsLocations, "homeDir"> = {}): Promise<TrustedFolder[]> {
  const document = await readSettingsDocument(settingsFiles(locations)[0]!.path);
  const records = isObject(document[TRUSTED_FOLDERS_KEY]) ? document[TRUSTED_FOLDERS_KEY] : {};
  return Object.entries(records)
    .filter((entry): entry is [string, TrustedFolderRecord] => isObject(entry[1]) && typeof entry[1].digest === "string")
    .map(([folder, record]) => ({
      folder,
      ...record,
      current:
        loadPermissionSettings({ ...locations, projectDir: folder, trustProjectSettings: true }).projectTrust.digest === record.digest,
    }))
    .sort((a, b) => a.folder.localeCompare(b.folder));
}

async function editTrustedFolders(
  locations: Pick<SettingsLocations, "homeDir">,
  edit: (records: Record<string, TrustedFolderRecord>) => void,
): Promise<void> {
  const path = settingsFiles(locations)[0]!.path;
  const document = await readSettingsDocument(path);
  const records = (isObject(document[TRUSTED_FOLDERS_KEY]) ? document[TRUSTED_FOLDERS_KEY] : {}) as Record<string, TrustedFolderRecord>;
  edit(records);
  document[TRUSTED_FOLDERS_KEY] = records;
  await writeSettingsDocument(path, document);
}
