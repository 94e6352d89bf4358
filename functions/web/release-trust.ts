import type { PublishedEntry, VersionStatus } from "../entry/published-entry.js";
import { ADMIN_PUBLISHER } from "../trust/publisher-name.js";

/** How much of a deprecation message or yank reason a versions table shows; the version's own page shows it whole. */
const TABLE_MESSAGE_CHARS = 140;

/** A version's lifecycle status as the pages show it (docs/design/publisher-trust.md, "Version lifecycle"). */
export interface ReleaseStatus {
  status: VersionStatus;
  /** The deprecation message or yank reason, as the publisher wrote it (escaped when rendered). */
  message: string | undefined;
}

/** Entries stored before lifecycle statuses are active, as the API presents them. */
export function releaseStatus(entry: PublishedEntry): ReleaseStatus {
  const status = entry.status ?? "active";
  return { status, message: status === "active" ? undefined : entry.status_message };
}

/** The publisher that owns the tool; entries stored before ownership were published by the admin, as the API presents them. */
export function publisherOf(entry: PublishedEntry): string {
  return entry.owner ?? ADMIN_PUBLISHER;
}

/**
 * How a page names a publisher: a publisher token's name as it is; the admin token's as what it
 * is, the registry's operator, since "admin" names a token, not who made the tool (its author does).
 */
export function publisherLabel(publisher: string): string {
  return publisher === ADMIN_PUBLISHER ? "the registry operator" : publisher;
}

/** `sha256:9c1f04ab12cd5e6f…`: enough of a key id to compare by eye (the whole one goes in its title). */
export function shortKeyId(keyId: string): string {
  return keyId.length > 23 ? `${keyId.slice(0, 23)}…` : keyId;
}

/** A message cut for a table cell. */
export function tableMessage(message: string): string {
  return message.length > TABLE_MESSAGE_CHARS ? `${message.slice(0, TABLE_MESSAGE_CHARS)}…` : message;
}

/** The version "latest" resolves to: the highest that is not yanked (`versions` newest first). */
export function latestVersion(versions: readonly PublishedEntry[]): string | undefined {
  return versions.find((version) => releaseStatus(version).status !== "yanked")?.version;
}

/**
 * The versions a page lists: like `GET /tools/{id}/versions`, yanked ones only when asked
 * (`include_yanked=true`), except the version shown, which is always listed, marked.
 */
export function listedVersions(
  versions: readonly PublishedEntry[],
  shown: string,
  includeYanked: boolean,
): { listed: PublishedEntry[]; hiddenYanked: number } {
  const listed = versions.filter((version) => includeYanked || version.version === shown || releaseStatus(version).status !== "yanked");
  return { listed, hiddenYanked: versions.length - listed.length };
}
