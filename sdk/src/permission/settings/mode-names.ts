import { PermissionMode } from "../types.js";

/** Our mode names, plus Claude Code's, so a copied `defaultMode` keeps working. */
const MODE_NAMES: Record<string, PermissionMode> = {
  ...Object.fromEntries(Object.values(PermissionMode).map((mode) => [mode, mode])),
  acceptEdits: PermissionMode.ACCEPT_EDITS,
  plan: PermissionMode.EXPLORE,
  dontAsk: PermissionMode.DONT_ASK,
  bypassPermissions: PermissionMode.BYPASS,
};

export function parseModeName(name: unknown): PermissionMode | undefined {
  return typeof name === "string" && Object.hasOwn(MODE_NAMES, name) ? MODE_NAMES[name] : undefined;
}

export const KNOWN_MODE_NAMES = Object.keys(MODE_NAMES);
