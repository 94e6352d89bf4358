import semver from "semver";
import type { ToolRecord } from "../registry-client/tool-record.js";
import { TrustError } from "./trust-errors.js";
import { mayBeLatest } from "./version-status.js";

const HOUR_MS = 3_600_000;

/** Checks `minReleaseAgeHours` once, when `AgentTools` is constructed. */
export function releaseAgeHours(value: unknown): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0) {
    throw new TrustError(
      "TRUST_OPTIONS_INVALID",
      `minReleaseAgeHours must be a number of hours, 0 or more (e.g. 24), but it is ${JSON.stringify(value) ?? String(value)}.`,
    );
  }
  return value;
}

/**
 * The version "latest" means under a release-age floor (npm's `min-release-age`): the highest
 * semver among the versions published at least `minAgeHours` before `now` and not yanked, so a
 * version published a minute ago does not reach agents at once. A version whose `published_at`
 * is missing, unreadable or in the future is never old enough (fail closed). `versions` is what
 * the registry answered for `GET /tools/{id}/versions`, checked here.
 */
export function newestReleaseOldEnough(toolId: string, versions: unknown, minAgeHours: number, now: number): string {
  const entries = Array.isArray(versions) ? versions.filter(isEntry) : [];
  const cutoff = now - minAgeHours * HOUR_MS;
  const candidates = entries.filter(
    (entry) => typeof entry.version === "string" && semver.valid(entry.version) !== null && mayBeLatest(entry),
  );
  const old = candidates.filter((entry) => publishedAt(entry) <= cutoff);
  const chosen = semver.rsort(old.map((entry) => entry.version as string))[0];
  if (chosen !== undefined) return chosen;
  const newest = candidates.sort((a, b) => semver.rcompare(a.version as string, b.version as string))[0];
  const seen =
    newest === undefined
      ? "the registry lists no version that is not yanked"
      : `the newest, ${newest.version}, was published ${describeAge(publishedAt(newest), now)}`;
  throw new TrustError(
    "NO_RELEASE_OLD_ENOUGH",
    `No version of tool "${toolId}" was published at least ${minAgeHours} hours ago (minReleaseAgeHours): ` +
      `${seen}. Wait, pin a version with add("${toolId}@<version>"), or lower minReleaseAgeHours.`,
    { toolId },
  );
}

/** `published_at` in ms; NaN (never old enough) when absent or not a date. */
function publishedAt(entry: ToolRecord): number {
  return typeof entry.published_at === "string" ? Date.parse(entry.published_at) : Number.NaN;
}

function describeAge(time: number, now: number): string {
  if (Number.isNaN(time)) return "at a time the registry does not say";
  if (time > now) return "in the future by the registry's clock";
  return `${((now - time) / HOUR_MS).toFixed(1)} hours ago`;
}

function isEntry(value: unknown): value is ToolRecord {
  return typeof value === "object" && value !== null && !Array.isArray(value) && typeof (value as ToolRecord).tool_id === "string";
}
