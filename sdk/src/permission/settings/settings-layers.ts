import { homedir } from "node:os";
import { join } from "node:path";

/** Where rules come from, least specific first; later layers set the mode, all layers add rules. */
export const SETTINGS_LAYERS = ["user", "project", "local", "code"] as const;
export type SettingsLayer = (typeof SETTINGS_LAYERS)[number];

/** The `source` recorded on rules from each layer (Claude Code's names). */
export const LAYER_SOURCE: Record<SettingsLayer, string> = {
  user: "userSettings",
  project: "projectSettings",
  local: "localSettings",
  code: "session",
};

export interface SettingsFile {
  layer: Exclude<SettingsLayer, "code">;
  path: string;
  /** Relative `additionalDirectories` resolve against this folder. */
  baseDir: string;
  /** What `~` means in this file's paths. */
  homeDir: string;
}

export interface SettingsLocations {
  /** The project whose `.agent-tools/` folder holds project and local settings (default: the cwd). */
  projectDir?: string;
  /** Whose `~/.agent-tools/settings.json` holds user settings (default: the OS home). */
  homeDir?: string;
}

/** The three settings files, least specific first (user, project, local). */
export function settingsFiles(locations: SettingsLocations = {}): SettingsFile[] {
  const home = locations.homeDir ?? homedir();
  const project = locations.projectDir ?? process.cwd();
  return [
    { layer: "user", path: join(home, ".agent-tools", "settings.json"), baseDir: home, homeDir: home },
    { layer: "project", path: join(project, ".agent-tools", "settings.json"), baseDir: project, homeDir: home },
    { layer: "local", path: join(project, ".agent-tools", "settings.local.json"), baseDir: project, homeDir: home },
  ];
}
