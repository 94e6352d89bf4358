import semver from "semver";
import { TOOL_ID_PATTERN } from "../tool-spec/tool-spec-schema.js";
import { untrustedText } from "../trust/untrusted-text.js";
import { RegistryEntryError } from "../registry-client/registry-errors.js";
import type { ToolRecord } from "../registry-client/tool-record.js";

const TOOL_ID = new RegExp(TOOL_ID_PATTERN);
const SHA256_HEX = /^[0-9a-fA-F]{64}$/;
const OWNER = /^[a-z0-9][a-z0-9-]{0,62}$/;
const MAX_VERSION_LENGTH = 256;

/**
 * The registry's entry for `toolId` (and `version`, when one was asked for), checked for shape
 * before any of it names a file (docs/sdk.md#cache-and-integrity): the tool id is the one asked for
 * and a valid id, the version a semantic version, `tool_archive_sha256` 64 hex digits (it names the
 * cache's archive and tree folders), the owner a publisher name. A registry that answers anything
 * else (`"../../planted"` as a digest) is refused with `REGISTRY_ENTRY_INVALID` before the cache
 * is touched; every problem is listed.
 */
export function checkedEntry(entry: unknown, toolId: string, version: string | undefined, registryUrl: string): ToolRecord {
  const problems = entryShapeProblems(entry, toolId, version);
  if (problems.length > 0) throw new RegistryEntryError(toolId, registryUrl, problems);
  return entry as ToolRecord;
}

function entryShapeProblems(entry: unknown, toolId: string, version: string | undefined): string[] {
  if (typeof entry !== "object" || entry === null || Array.isArray(entry)) return ["it is not a JSON object"];
  const record = entry as Record<string, unknown>;
  const problems: string[] = [];
  const id = record.tool_id;
  if (typeof id !== "string" || !TOOL_ID.test(id) || id.includes("..")) problems.push(`its tool_id ${shown(id)} is not a tool id`);
  else if (id !== toolId) problems.push(`its tool_id ${shown(id)} is not the tool asked for`);
  const entryVersion = record.version;
  if (entryVersion !== undefined) {
    if (typeof entryVersion !== "string" || entryVersion.length > MAX_VERSION_LENGTH || semver.valid(entryVersion) !== entryVersion)
      problems.push(`its version ${shown(entryVersion)} is not a semantic version`);
    else if (version !== undefined && entryVersion !== version)
      problems.push(`its version ${shown(entryVersion)} is not the version asked for`);
  }
  const sha256 = record.tool_archive_sha256;
  if (sha256 !== undefined && (typeof sha256 !== "string" || !SHA256_HEX.test(sha256)))
    problems.push(`its tool_archive_sha256 ${shown(sha256)} is not 64 hexadecimal digits`);
  const owner = record.owner;
  if (owner !== undefined && (typeof owner !== "string" || !OWNER.test(owner)))
    problems.push(`its owner ${shown(owner)} is not a publisher name`);
  for (const field of ["tool_runtime_type", "tool_source_code_link"] as const) {
    if (record[field] !== undefined && typeof record[field] !== "string") problems.push(`its ${field} is not a string`);
  }
  return problems;
}

function shown(value: unknown): string {
  if (typeof value !== "string") return value === undefined ? "(missing)" : `(a ${Array.isArray(value) ? "list" : typeof value})`;
  const text = untrustedText(value);
  return JSON.stringify(text.length > 80 ? `${text.slice(0, 80)}…` : text);
}
