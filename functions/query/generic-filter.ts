import { isDeepStrictEqual } from "node:util";
import type { PublishedEntry } from "../entry/published-entry.js";
import { TOOL_ENTRY_FIELDS, TOOL_ENTRY_FIELD_NAMES } from "../entry/tool-entry.js";
import { HttpProblem } from "../http-problem.js";

/**
 * `POST /tools/query/generic` takes a MongoDB-style filter, as the Python registry did, but only a
 * safe subset of it: per field (a ToolEntry field or a registry-owned one, or a dotted path into an
 * object field such as `tool_metadata.author`) an equality, `{"$in": [...]}` or
 * `{"$exists": true|false}`; all conditions must hold. Equality follows MongoDB: a list field
 * matches a value it contains or an equal list, and `null` matches a missing value. Anything else
 * (other operators, `$where`, regexes, unknown fields) is a 400 naming what is supported, where
 * the Python registry answered `[]` and passed the filter to the database as it came.
 */
export type EntryPredicate = (entry: PublishedEntry) => boolean;

const REGISTRY_OWNED_FIELDS = [
  "version",
  "tool_archive_sha256",
  "tool_archive_integrity",
  "tool_archive_size",
  "published_at",
  "updated_at",
];
const QUERYABLE_FIELDS = [...TOOL_ENTRY_FIELD_NAMES.filter((field) => field !== "tool_source_code_link"), ...REGISTRY_OWNED_FIELDS];
const OBJECT_FIELDS = new Set(TOOL_ENTRY_FIELD_NAMES.filter((field) => TOOL_ENTRY_FIELDS[field] === "object"));
const MAX_CONDITIONS = 50;
const MAX_IN_VALUES = 1000;

export const GENERIC_QUERY_HELP =
  'Send a JSON object of conditions, all of which must hold, e.g. {"tool_type": "text-processing", ' +
  '"tool_tags": {"$in": ["nlp", "ml"]}, "tool_metadata.author": {"$exists": true}}. ' +
  'Each condition is an equality, {"$in": [values]} or {"$exists": true|false}, on one of ' +
  `${QUERYABLE_FIELDS.join(", ")}, or a dotted path into ${[...OBJECT_FIELDS].join(", ")}.`;

function invalid(problem: string): HttpProblem {
  return new HttpProblem(400, "Invalid query", `${problem}. ${GENERIC_QUERY_HELP}`);
}

export function parseGenericFilter(body: unknown): EntryPredicate {
  if (body === undefined) throw invalid("The body is empty");
  if (body === null || typeof body !== "object" || Array.isArray(body))
    throw invalid(`The body is ${Array.isArray(body) ? "an array" : JSON.stringify(body)}, not an object of conditions`);
  const conditions = Object.entries(body);
  if (conditions.length > MAX_CONDITIONS)
    throw invalid(`The filter has ${conditions.length} conditions; at most ${MAX_CONDITIONS} are accepted`);
  const predicates = conditions.map(([path, condition]) => fieldPredicate(path, condition));
  return (entry) => predicates.every((matches) => matches(entry));
}

function fieldPredicate(path: string, condition: unknown): EntryPredicate {
  const segments = path.split(".");
  const [field] = segments;
  if (path.startsWith("$")) throw invalid(`"${path}" is not supported: only per-field conditions are`);
  if (!QUERYABLE_FIELDS.includes(field!)) throw invalid(`"${field}" is not a queryable ToolEntry field`);
  if (segments.length > 1 && !OBJECT_FIELDS.has(field as never))
    throw invalid(`"${path}" goes inside ${field}, which is not an object field`);
  if (segments.some((segment) => segment === "")) throw invalid(`"${path}" has an empty path segment`);
  const read = (entry: PublishedEntry) => valueAt(entry, segments);

  if (!isOperatorObject(condition)) return (entry) => equals(read(entry), condition);
  const operators = Object.entries(condition as Record<string, unknown>).map(([operator, operand]): ((value: unknown) => boolean) => {
    if (operator === "$in") {
      if (!Array.isArray(operand)) throw invalid(`"${path}": $in needs a list of values, got ${JSON.stringify(operand)}`);
      if (operand.length > MAX_IN_VALUES)
        throw invalid(`"${path}": $in has ${operand.length} values; at most ${MAX_IN_VALUES} are accepted`);
      return (value) => operand.some((candidate) => equals(value, candidate));
    }
    if (operator === "$exists") {
      if (typeof operand !== "boolean") throw invalid(`"${path}": $exists needs true or false, got ${JSON.stringify(operand)}`);
      return (value) => (value !== undefined) === operand;
    }
    throw invalid(`"${path}": the operator ${operator} is not supported`);
  });
  return (entry) => {
    const value = read(entry);
    return operators.every((matches) => matches(value));
  };
}

/** An object whose keys are operators (`{"$in": …}`); an object with both operators and plain keys is refused. */
function isOperatorObject(condition: unknown): boolean {
  if (condition === null || typeof condition !== "object" || Array.isArray(condition)) return false;
  const keys = Object.keys(condition);
  const operators = keys.filter((key) => key.startsWith("$"));
  if (operators.length > 0 && operators.length < keys.length)
    throw invalid(`${JSON.stringify(condition).slice(0, 80)} mixes operators and fields`);
  return operators.length > 0;
}

function valueAt(entry: PublishedEntry, segments: string[]): unknown {
  let value: unknown = entry;
  for (const segment of segments) {
    if (value === null || typeof value !== "object" || Array.isArray(value) || !Object.hasOwn(value, segment)) return undefined;
    value = (value as Record<string, unknown>)[segment];
  }
  return value;
}

/** MongoDB's equality: `null` also matches a missing value, and a list matches a value it contains. */
function equals(value: unknown, expected: unknown): boolean {
  if (expected === null && value === undefined) return true;
  if (isDeepStrictEqual(value, expected)) return true;
  return Array.isArray(value) && value.some((item) => isDeepStrictEqual(item, expected));
}
