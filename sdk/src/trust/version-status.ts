import { asSentence } from "../errors.js";
import type { ToolRecord } from "../registry-client/tool-record.js";
import { ToolYankedError, TrustError } from "./trust-errors.js";
import { untrustedText } from "./untrusted-text.js";

/** A published version's lifecycle, as the registry presents it (`status`, docs/design/publisher-trust.md). */
export type VersionStatus = "active" | "deprecated" | "yanked";

export interface VersionLifecycle {
  status: VersionStatus;
  /** The deprecation message or yank reason, safe to print; undefined for an active version. */
  message: string | undefined;
}

/** What `onWarning` receives: one per tool version and `AgentTools` instance. */
export interface ToolWarning {
  /** A deprecated version, or a yanked one that runs because it was pinned exactly. */
  code: "TOOL_DEPRECATED" | "TOOL_YANKED";
  toolId: string;
  version: string;
  message: string;
}

const STATUSES: readonly string[] = ["active", "deprecated", "yanked"] satisfies VersionStatus[];

/**
 * The lifecycle of an entry. An entry without `status` comes from a registry older than
 * lifecycles and is active; anything else than the three statuses, or a message that is not text,
 * is a registry the SDK cannot trust to say what it means, so it is refused.
 */
export function versionLifecycle(entry: ToolRecord): VersionLifecycle {
  const { status, status_message: message } = entry;
  if (status === undefined) return { status: "active", message: undefined };
  if (typeof status !== "string" || !STATUSES.includes(status)) {
    throw new TrustError(
      "TOOL_STATUS_INVALID",
      `The registry sent tool "${entry.tool_id}" with status ${describe(status)}; a version's status ` +
        `is "active", "deprecated" or "yanked". Check that toolsDbUrl names an Agent Tools registry.`,
      { toolId: entry.tool_id },
    );
  }
  if (message !== undefined && message !== null && typeof message !== "string") {
    throw new TrustError(
      "TOOL_STATUS_INVALID",
      `The registry sent tool "${entry.tool_id}" with a status_message that is ` +
        `${describe(message)}, not text. Check that toolsDbUrl names an Agent Tools registry.`,
      { toolId: entry.tool_id },
    );
  }
  if (status === "active") return { status, message: undefined };
  return {
    status: status as VersionStatus,
    message: typeof message === "string" && message.trim() !== "" ? asSentence(untrustedText(message)) : "no reason given.",
  };
}

/** Whether "latest" may resolve to this entry: not yanked, and with a status this SDK can read. */
export function mayBeLatest(entry: ToolRecord): boolean {
  try {
    return versionLifecycle(entry).status !== "yanked";
  } catch {
    return false;
  }
}

/**
 * Lets an entry's version run, or refuses it: a yanked version only when it was pinned exactly
 * (the user asked for those bytes), with a warning, and a deprecated one with a warning.
 */
export function admitVersionStatus(entry: ToolRecord, version: string, pinnedExactly: boolean, warn: (warning: ToolWarning) => void): void {
  const lifecycle = versionLifecycle(entry);
  if (lifecycle.status === "yanked" && !pinnedExactly) throw new ToolYankedError(entry.tool_id, version, lifecycle.message ?? "");
  if (lifecycle.status === "yanked") {
    warn({
      code: "TOOL_YANKED",
      toolId: entry.tool_id,
      version,
      message:
        `Tool "${entry.tool_id}" version ${version} was yanked by its publisher: ` +
        `${lifecycle.message} It runs because you pinned it exactly; move to another version.`,
    });
  }
  if (lifecycle.status === "deprecated") {
    warn({
      code: "TOOL_DEPRECATED",
      toolId: entry.tool_id,
      version,
      message: `Tool "${entry.tool_id}" version ${version} is deprecated: ${lifecycle.message} Move to a newer version when you can.`,
    });
  }
}

function describe(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(untrustedText(value).slice(0, 60));
  if (value === null) return "null";
  return Array.isArray(value) ? "a list" : typeof value === "object" ? "an object" : `the ${typeof value} ${String(value)}`;
}
