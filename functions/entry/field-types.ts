import { TOOL_ENTRY_FIELDS, isToolEntryField, type FieldKind } from "./tool-entry-fields.js";

/**
 * What is wrong with the types of the schema fields present in `record`, one sentence per
 * field (`tool_tags must be a list of strings, but item 2 is the number 3`). Unknown keys are
 * not judged here; `null` counts as absent (the default applies).
 */
export function fieldTypeProblems(record: Record<string, unknown>): string[] {
  const problems: string[] = [];
  for (const [key, value] of Object.entries(record)) {
    if (!isToolEntryField(key) || value === null || value === undefined) continue;
    const problem = problemWith(TOOL_ENTRY_FIELDS[key], value);
    if (problem !== undefined) problems.push(`${key} must be ${problem}`);
  }
  return problems;
}

function problemWith(kind: FieldKind, value: unknown): string | undefined {
  switch (kind) {
    case "string":
      return typeof value === "string" ? undefined : `a string, but it is ${describe(value)}`;
    case "object":
      return isPlainObject(value) ? undefined : `a JSON object ({...}), but it is ${describe(value)}`;
    case "string-list": {
      if (!Array.isArray(value)) return `a list of strings (e.g. ["text", "nlp"]), but it is ${describe(value)}`;
      const bad = value.findIndex((item) => typeof item !== "string");
      return bad < 0 ? undefined : `a list of strings, but item ${bad} is ${describe(value[bad])}`;
    }
  }
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** `the number 3`, `a list`, `the string "x"`: enough to spot the mistake in the spec. */
export function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "string") return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  if (typeof value === "object") return "an object";
  return `the ${typeof value} ${String(value)}`;
}
