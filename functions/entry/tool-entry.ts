import { HttpProblem } from "../http-problem.js";
import { fieldTypeProblems } from "./field-types.js";
import { TOOL_ENTRY_FIELDS, TOOL_ENTRY_FIELD_NAMES, defaultFor, type ToolEntry } from "./tool-entry-fields.js";

export { TOOL_ENTRY_FIELDS, TOOL_ENTRY_FIELD_NAMES, isToolEntryField, type ToolEntry, type ToolEntryField } from "./tool-entry-fields.js";
export { validateEntryUpdate, UPDATABLE_FIELDS } from "./entry-update.js";

/**
 * The ToolEntry a spec describes, as the Python registry builds it (docs/design/compatibility.md#entry): only schema
 * fields kept, missing (or null) ones filled with their defaults. Unlike the Python registry, field
 * types are checked: a 422 lists every field of the wrong type.
 */
export function entryFromSpec(spec: Record<string, unknown>): ToolEntry {
  assertFieldTypes(spec);
  const entry: Record<string, unknown> = {};
  for (const field of TOOL_ENTRY_FIELD_NAMES) {
    const value = spec[field];
    entry[field] = value === undefined || value === null ? defaultFor(TOOL_ENTRY_FIELDS[field]) : value;
  }
  return entry as ToolEntry;
}

function assertFieldTypes(spec: Record<string, unknown>): void {
  const problems = fieldTypeProblems(spec);
  if (problems.length > 0) {
    throw new HttpProblem(422, "Failed to process tool package", `spec.json has fields of the wrong type: ${problems.join("; ")}.`);
  }
}
