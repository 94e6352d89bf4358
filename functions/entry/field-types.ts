import { describeValue, fieldTypeProblems as specFieldTypeProblems, isPlainObject } from "@agent-tools/sdk/tool-spec";

export { isPlainObject };

/** `the number 3`, `a list`, `the string "x"`: enough to spot the mistake in the spec. */
export const describe = describeValue;

/**
 * What is wrong with the types of the schema fields present in `record`, one sentence per
 * field (`tool_tags must be a list of strings, but item 2 is the number 3`). Unknown keys are
 * not judged here; `null` counts as absent (the default applies). The rule is spec.json's
 * (`@agent-tools/sdk/tool-spec`), so an upload, a `PUT` and `agent-tools pack` judge alike.
 */
export function fieldTypeProblems(record: Record<string, unknown>): string[] {
  return specFieldTypeProblems(record).map(({ field, message }) => `${field} must be ${message}`);
}
