import { homedir, userInfo } from "node:os";
import { sep } from "node:path";
import { resolveRealPath } from "../../permission/working-directories.js";
import { CapabilityPathRefusedError } from "../sandbox-errors.js";
import type { HiddenPath } from "../sandbox-profile.js";
import { refusedCapabilityPath, type FilesystemCapability } from "./tool-capabilities.js";

/**
 * What the SDK knows about secret locations (its built-in tools' lists, `builtin/paths/`), handed
 * in by `AgentTools`, so the sandbox judges a grant like every other path without depending on
 * the built-in tools.
 */
export interface SecretLocations {
  /** Why the real path is, or lies inside, a location holding secrets (or code that runs later, for writes); undefined when it is not. */
  reason(realPath: string, access: FilesystemCapability["access"]): string | undefined;
  /** The secret files and folders inside a granted folder: masked in the sandbox. */
  within(realPath: string): HiddenPath[];
}

/** A folder of the SDK's own (its cache, the tools' state, the proxies' sockets, its settings), with what it is. */
export interface SdkFolder {
  path: string;
  what: string;
}

export interface GrantedPathRules {
  sdkFolders: readonly SdkFolder[];
  secrets: SecretLocations | undefined;
}

/** A filesystem grant as the sandbox binds it: the real path, and what to mask inside it. */
export interface GrantedPath {
  path: string;
  hidden: HiddenPath[];
}

/**
 * Resolves a filesystem grant on the host, now, and checks the real path (docs/sandbox.md#capability-paths):
 * however it is spelled (`//`, `/./`, a trailing slash, a link planted to `/`), it may not be the
 * root, `/proc`, `/sys`, `/dev`, a home folder or a folder above the agent's home, a secret
 * location, or one of the SDK's own folders or inside one. The SDK's folders and the secrets
 * inside a granted folder are masked. What is bound is the real path, so a link changed later
 * cannot move the grant. Throws `CapabilityPathRefusedError` naming the grant and why.
 */
export function grantedPath(
  toolId: string,
  declared: string,
  access: FilesystemCapability["access"],
  rules: GrantedPathRules,
): GrantedPath {
  const real = resolveRealPath(declared);
  const refuse = (why: string, fix = "Grant the folder the tool needs, below it."): never => {
    const resolved = real === declared ? "" : ` (it resolves to ${real})`;
    throw new CapabilityPathRefusedError(toolId, `filesystem:${declared}:${access}`, `${declared}${resolved} ${why}`, fix);
  };
  const textual = refusedCapabilityPath(real);
  if (textual !== undefined) refuse(textual);
  for (const home of agentHomes()) {
    if (real === home) refuse("is the agent's home folder, with its keys and credentials");
    if (isInside(home, real)) refuse(`holds the agent's home folder (${home})`);
  }
  const hidden: HiddenPath[] = [];
  for (const folder of rules.sdkFolders) {
    const root = resolveRealPath(folder.path);
    if (real === root || isInside(real, root)) refuse(`is or leads into ${root}, ${folder.what}`, "Grant another folder.");
    if (isInside(root, real)) hidden.push({ path: root, kind: "directory" });
  }
  const secret = rules.secrets?.reason(real, access);
  if (secret !== undefined) refuse(`is ${secret}`);
  hidden.push(...(rules.secrets?.within(real) ?? []));
  return { path: real, hidden };
}

/** `path` strictly below `folder`, by whole segments. */
function isInside(path: string, folder: string): boolean {
  return path.startsWith(folder.endsWith(sep) ? folder : folder + sep) && path !== folder;
}

/** The agent's home as `HOME` says and as the password database says, each by its real path. */
function agentHomes(): string[] {
  const homes = [homedir()];
  try {
    homes.push(userInfo().homedir);
  } catch {
    // no password entry: HOME alone
  }
  return [...new Set(homes.filter((home) => home !== "" && home !== sep).map((home) => resolveRealPath(home)))];
}
