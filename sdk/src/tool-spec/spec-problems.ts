import { Ajv, type ErrorObject } from "ajv";
import semver from "semver";
import { toolCapabilityProblems } from "../sandbox/capabilities/tool-capabilities.js";
import { inputSchemaProblem } from "./input-schema-problem.js";
import { toolIdSpecProblem } from "./tool-id-rules.js";
import { platformRuleProblems, type ToolPlatform } from "./tool-platforms.js";
import { TOOL_SPEC_SCHEMA } from "./tool-spec-schema.js";
import { describeValue, isPlainObject } from "./value-description.js";

/** One thing wrong with a spec.json: where (a dotted path, `spec.json` for the whole) and what to change. */
export interface SpecProblem {
  path: string;
  message: string;
}

/** Longest version accepted (a DynamoDB sort key, and a path segment). */
export const MAX_VERSION_LENGTH = 128;

/** Whatever spec.json says for these, the registry replaces them (tool.md, the archive's URL). */
const REPLACED_AT_UPLOAD = new Set(["tool_man_page_doc", "tool_source_code_link"]);

// The schema is ours and fixed: compile it once. Formats are descriptive only.
const validateSchema = new Ajv({ strict: false, allErrors: true, validateFormats: false }).compile(TOOL_SPEC_SCHEMA);

/**
 * Every problem of a spec.json at once, by the rules the registry publishes with (its id rule,
 * field types, semver version, capability manifest, input JSON Schema, platforms, and the whole
 * `TOOL_SPEC_SCHEMA` served at `GET /schemas/spec.json`): the registry refuses an upload with any
 * of them (422, every one listed), and `agent-tools pack` and `publish` find them before
 * anything is uploaded. Keys set to `null` mean "the default". The schema's own message for a
 * path is left out when a specific check (id, types, version, input schema) spoke about it or a field above it.
 *
 * @example
 * specProblems({ tool_id: "a b", tool_tags: "text", tool_metadata: { version: "1.0" } }).map((problem) => problem.path);
 * // ["tool_id", "tool_tags", "tool_metadata.version"]
 */
export function specProblems(spec: Record<string, unknown>): SpecProblem[] {
  const present = Object.fromEntries(Object.entries(spec).filter(([key, value]) => value !== null && !REPLACED_AT_UPLOAD.has(key)));
  const problems: SpecProblem[] = [];
  const idProblem = toolIdSpecProblem(spec.tool_id);
  if (idProblem !== undefined) problems.push({ path: "tool_id", message: idProblem });
  problems.push(...fieldTypeProblems(present).map(({ field, message }) => ({ path: field, message: `${field} must be ${message}` })));
  const version = versionProblem(present.tool_metadata);
  if (version !== undefined) problems.push({ path: "tool_metadata.version", message: version });
  for (const message of toolCapabilityProblems(present.tool_capabilities)) problems.push({ path: "tool_capabilities", message });
  const input = inputSchemaProblem(present.tool_api_spec);
  if (input !== undefined) problems.push(input);
  // The schema's generic message adds nothing where a specific one above was given, or beneath it.
  const covered = problems.map((problem) => problem.path);
  if (!validateSchema(present)) {
    for (const error of validateSchema.errors ?? []) {
      const path = dottedPath(error);
      if (covered.some((known) => path === known || path.startsWith(`${known}.`) || path.startsWith(`${known}[`))) continue;
      problems.push({ path, message: `${path === "" ? "spec.json" : path} ${describeSchemaError(error)} (GET /schemas/spec.json)` });
    }
  }
  if (Array.isArray(present.tool_platforms) && present.tool_platforms.every(isPlainObject))
    for (const message of platformRuleProblems(present.tool_platforms as unknown as ToolPlatform[], present.tool_runtime_type))
      problems.push({ path: "tool_platforms", message });
  return problems;
}

/**
 * `spec.json has 3 problems: …; …; ….`, or the one problem's own sentence: the detail of the registry's 422,
 * the message of `pack`'s refusal.
 */
export function describeSpecProblems(problems: readonly SpecProblem[]): string {
  const sentence = (problem: SpecProblem) => problem.message.trimEnd().replace(/[.]+$/, "");
  if (problems.length === 1) return `${sentence(problems[0]!)}.`;
  return `spec.json has ${problems.length} problems: ${problems.map(sentence).join("; ")}.`;
}

/**
 * What is wrong with the types of the top-level fields present in `record` that the schema types
 * (string, object, list of strings), one entry per field with the sentence after "<field> must be".
 * `null` counts as absent (the default applies); unknown keys are not judged. The registry also
 * checks `PUT` bodies with it.
 */
export function fieldTypeProblems(record: Record<string, unknown>): { field: string; message: string }[] {
  const properties = TOOL_SPEC_SCHEMA.properties as Record<string, { type?: string; items?: { type?: string } }>;
  const problems: { field: string; message: string }[] = [];
  for (const [field, value] of Object.entries(record)) {
    const node = Object.hasOwn(properties, field) ? properties[field]! : {};
    const type = node.type === "array" ? (node.items?.type === "string" ? "string-list" : undefined) : node.type;
    if (value === null || value === undefined || type === undefined) continue;
    const message = typeProblem(type, value);
    if (message !== undefined) problems.push({ field, message });
  }
  return problems;
}

function typeProblem(type: string, value: unknown): string | undefined {
  if (type === "string") return typeof value === "string" ? undefined : `a string, but it is ${describeValue(value)}`;
  if (type === "object") return isPlainObject(value) ? undefined : `a JSON object ({...}), but it is ${describeValue(value)}`;
  if (!Array.isArray(value)) return `a list of strings (e.g. ["text", "nlp"]), but it is ${describeValue(value)}`;
  const bad = value.findIndex((item) => typeof item !== "string");
  return bad < 0 ? undefined : `a list of strings, but item ${bad} is ${describeValue(value[bad])}`;
}

/** What is wrong with `tool_metadata.version` (absent is fine: 0.0.0), in one sentence. */
export function versionProblem(metadata: unknown): string | undefined {
  const version = isPlainObject(metadata) ? metadata.version : undefined;
  if (version === undefined || version === null) return undefined;
  if (typeof version !== "string")
    return `tool_metadata.version must be a semver string such as "1.0.0", but it is ${describeValue(version)}.`;
  const valid = semver.valid(version);
  if (valid === null)
    return (
      `tool_metadata.version ${JSON.stringify(version)} is not semantic ` +
      `versioning: use MAJOR.MINOR.PATCH, e.g. "1.0.0" or "2.1.0-beta.1".`
    );
  if (valid.length > MAX_VERSION_LENGTH)
    return `tool_metadata.version is ${valid.length} characters long; versions are limited to ${MAX_VERSION_LENGTH}.`;
  return undefined;
}

function dottedPath(error: ErrorObject): string {
  const segments = error.instancePath
    .split("/")
    .slice(1)
    .map((segment) => segment.replaceAll("~1", "/").replaceAll("~0", "~"));
  if (error.keyword === "additionalProperties" && typeof error.params.additionalProperty === "string")
    segments.push(error.params.additionalProperty);
  if (error.keyword === "required" && typeof error.params.missingProperty === "string") segments.push(error.params.missingProperty);
  return segments.reduce(
    (path, segment) => (/^\d+$/.test(segment) ? `${path}[${segment}]` : path === "" ? segment : `${path}.${segment}`),
    "",
  );
}

function describeSchemaError(error: ErrorObject): string {
  if (error.keyword === "enum")
    return `must be one of ${(error.params.allowedValues as unknown[]).map((value) => JSON.stringify(value)).join(", ")}`;
  if (error.keyword === "additionalProperties") return "is not a known field: remove it";
  if (error.keyword === "required") return "is required";
  return error.message ?? "is invalid";
}
