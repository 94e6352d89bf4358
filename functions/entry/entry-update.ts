import { isDeepStrictEqual } from "node:util";
import { RUNTIME_FIELDS } from "@agent-tools/sdk/tool-spec";
import { HttpProblem } from "../http-problem.js";
import { fieldTypeProblems, isPlainObject } from "./field-types.js";
import {
  TOOL_ENTRY_FIELDS,
  TOOL_ENTRY_FIELD_NAMES,
  defaultFor,
  isToolEntryField,
  type ToolEntry,
  type ToolEntryField,
} from "./tool-entry-fields.js";

/** Why each non-descriptive field cannot change through `PUT /tools/{id}`. */
const FROZEN_FIELDS: Record<string, string> = {
  tool_id: "it is the tool's identity; upload the tool under a new tool_id instead",
  tool_runtime_type: "the archive was checked for this runtime; upload a new version to change it",
  tool_api_spec: "agents rely on a published version's schema; upload a new version with the new schema",
  tool_source_code_link: "the registry derives it from the published archive",
  version: "it is set from tool_metadata.version when a version is uploaded",
  tool_archive_sha256: "the registry computes it from the published archive",
  tool_archive_integrity: "the registry computes it from the published archive",
  tool_archive_size: "the registry computes it from the published archive",
  published_at: "the registry records it at upload",
  updated_at: "the registry sets it on every change",
  owner: "the registry records the publisher that owns the tool id",
  status: "set a version's status with PATCH /tools/{id}/versions/{version}",
  status_message: "set a version's status with PATCH /tools/{id}/versions/{version}",
  signature: "send the new signature in the X-Agent-Tools-Signature header",
  tool_capabilities: "agents granted a published version's capabilities rely on them; upload a new version to change what the tool may do",
  ...Object.fromEntries(
    RUNTIME_FIELDS.filter((entry) => entry.frozenOnPut).map((entry) => [entry.field, `${entry.reason}; upload a new version instead`]),
  ),
};

/** Descriptive and configuration fields: everything in the schema that is not frozen. */
export const UPDATABLE_FIELDS: readonly ToolEntryField[] = TOOL_ENTRY_FIELD_NAMES.filter((field) => !Object.hasOwn(FROZEN_FIELDS, field));

/**
 * The changes a `PUT /tools/{id}` body may make. Frozen fields are refused with the reason,
 * unless they equal `current`'s value (so a GET → edit → PUT round trip works); unknown fields
 * and wrong types are refused too, all problems listed at once (422).
 */
export function validateEntryUpdate(body: unknown, current?: Record<string, unknown>): Partial<ToolEntry> {
  if (!isPlainObject(body)) {
    throw new HttpProblem(
      400,
      "Invalid update payload",
      `The body must be a JSON object of the fields to change, e.g. ` +
        `{"tool_search_description": "..."}; got ${Array.isArray(body) ? "a list" : typeof body}.`,
    );
  }
  const changes: Record<string, unknown> = {};
  const problems: string[] = [];
  const unknown: string[] = [];
  for (const [key, value] of Object.entries(body)) {
    if (Object.hasOwn(FROZEN_FIELDS, key)) {
      if (current === undefined || !isDeepStrictEqual(current[key], value)) problems.push(`${key} cannot change: ${FROZEN_FIELDS[key]}`);
    } else if (isToolEntryField(key)) {
      // As on upload, null is the field's default: no stored entry holds a null where readers expect a string, object or list.
      changes[key] = value === null ? defaultFor(TOOL_ENTRY_FIELDS[key]) : value;
    } else {
      unknown.push(key);
    }
  }
  if (unknown.length > 0)
    problems.push(
      `${unknown.join(", ")} ${unknown.length === 1 ? "is not a ToolEntry field" : "are not ToolEntry fields"} ` +
        `(updatable: ${UPDATABLE_FIELDS.join(", ")})`,
    );
  problems.push(...fieldTypeProblems(changes));
  if (problems.length > 0) throw new HttpProblem(422, "Invalid update payload", `${problems.join("; ")}.`);
  return changes as Partial<ToolEntry>;
}
