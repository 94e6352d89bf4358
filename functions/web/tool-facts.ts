import { isPlainObject } from "../entry/field-types.js";
import type { PublishedEntry } from "../entry/published-entry.js";

/** Free-form metadata shown as a line of text is cut here: the whole value is in the API. */
const MAX_FACT_CHARS = 200;

/**
 * `tool_metadata.license` and `.author` as a line of text. The spec leaves them free-form, so a
 * string shows as written, `{ "name": … }` (npm's person form) by its name and email, a list as
 * its items; anything else is not shown rather than guessed at.
 */
export function metadataText(value: unknown): string | undefined {
  const text = Array.isArray(value) ? value.map(personText).filter(Boolean).join(", ") : personText(value);
  if (!text) return undefined;
  return text.length > MAX_FACT_CHARS ? `${text.slice(0, MAX_FACT_CHARS)}…` : text;
}

function personText(value: unknown): string {
  if (typeof value === "string") return value.trim();
  if (typeof value === "number") return String(value);
  if (!isPlainObject(value) || typeof value.name !== "string") return "";
  return typeof value.email === "string" ? `${value.name.trim()} <${value.email.trim()}>` : value.name.trim();
}

export interface ToolFacts {
  license: string | undefined;
  author: string | undefined;
  /** `linux-x64-gnu`, … from the spec's `tool_platforms`; empty when the tool runs anywhere. */
  platforms: string[];
}

/** What a page says about a version beside its publisher: license, author, platforms. */
export function toolFacts(entry: PublishedEntry): ToolFacts {
  const metadata = isPlainObject(entry.tool_metadata) ? entry.tool_metadata : {};
  return { license: metadataText(metadata.license), author: metadataText(metadata.author), platforms: platformsOf(entry) };
}

/** The platforms a binary tool declares (`tool_platforms`: `{ os, arch, libc? }` each), as `os-arch[-libc]`. */
function platformsOf(entry: PublishedEntry): string[] {
  const declared = (entry as unknown as Record<string, unknown>).tool_platforms;
  if (!Array.isArray(declared)) return [];
  return declared
    .filter(isPlainObject)
    .map((platform) => [platform.os, platform.arch, platform.libc].filter((part) => typeof part === "string" && part !== "").join("-"))
    .filter(Boolean);
}
