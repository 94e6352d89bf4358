import { createHash } from "node:crypto";
import { Ajv, type ErrorObject } from "ajv";
import { Ajv2019 } from "ajv/dist/2019.js";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describeValue, isPlainObject } from "./value-description.js";

/** Where execute's input schema sits in spec.json. */
export const INPUT_SCHEMA_PATH = "tool_api_spec.entrypoints.execute.input";

// Custom keywords are allowed (OpenAI ignores them); formats are not checked at upload.
const OPTIONS = { strict: false, allErrors: true, validateFormats: false, addUsedSchema: false } as const;
const dialects = { draft7: new Ajv(OPTIONS), draft2019: new Ajv2019(OPTIONS), draft2020: new Ajv2020(OPTIONS) };

/**
 * What is wrong with `tool_api_spec.entrypoints.execute.input`, when present: LLM search sends it
 * as the function's parameter schema, so it must be a valid JSON Schema (draft-07 unless
 * `$schema` names 2019-09 or 2020-12) describing an object. Returns the dotted path of the
 * problem and a sentence naming the fix; undefined when it is fine (or absent).
 */
export function inputSchemaProblem(apiSpec: unknown): { path: string; message: string } | undefined {
  const path = ["tool_api_spec"];
  let schema: unknown = apiSpec;
  for (const key of ["entrypoints", "execute", "input"]) {
    if (schema === undefined || schema === null) return undefined;
    if (!isPlainObject(schema)) {
      const where = path.join(".");
      return {
        path: where,
        message:
          `${where} must be an object, but it is ${describeValue(schema)}. ` +
          `Expected shape: {"entrypoints": {"execute": {"input": <JSON Schema>}}}.`,
      };
    }
    schema = schema[key];
    path.push(key);
  }
  if (schema === undefined || schema === null) return undefined;
  const problem = schemaProblem(schema);
  return problem === undefined ? undefined : { path: INPUT_SCHEMA_PATH, message: `${INPUT_SCHEMA_PATH} ${problem}` };
}

function schemaProblem(schema: unknown): string | undefined {
  if (!isPlainObject(schema))
    return (
      `must be a JSON Schema object, but it is ${describeValue(schema)}. ` +
      `Example: {"type": "object", "properties": {"text": {"type": "string"}}}`
    );
  if (schema.type !== undefined && schema.type !== "object")
    return (
      `must describe an object (LLM function parameters are always an object), but its type is ` +
      `${JSON.stringify(schema.type)}. Wrap the value: {"type": "object", "properties": {"value": ...}}`
    );
  // New versions of a tool mostly keep its schema: judge each distinct schema once.
  const key = createHash("sha256").update(JSON.stringify(schema)).digest("hex");
  let verdict = verdicts.get(key);
  if (verdict === undefined) {
    verdict = judge(schema);
    if (verdicts.size >= MAX_REMEMBERED_SCHEMAS) verdicts.delete(verdicts.keys().next().value!);
    verdicts.set(key, verdict);
  }
  return verdict === OK ? undefined : verdict;
}

const OK = "";
const MAX_REMEMBERED_SCHEMAS = 1_000;
/** Schema JSON's sha256 → "" (valid) or the problem; compiling with Ajv costs milliseconds per upload. */
const verdicts = new Map<string, string>();

function judge(schema: Record<string, unknown>): string {
  const dialect = String(schema.$schema ?? "");
  const ajv = dialect.includes("2020-12") ? dialects.draft2020 : dialect.includes("2019-09") ? dialects.draft2019 : dialects.draft7;
  if (!ajv.validateSchema(schema)) return `is not a valid JSON Schema: ${explain(ajv.errors ?? [])}.`;
  try {
    ajv.compile(schema);
    return OK;
  } catch (error) {
    return `is not a usable JSON Schema: ${(error as Error).message}.`;
  } finally {
    // Ajv keeps every compiled schema object in its cache: drop it, or a long-running registry grows with each upload.
    ajv.removeSchema(schema);
  }
}

function explain(errors: ErrorObject[]): string {
  return errors
    .slice(0, 5)
    .map(
      (error) =>
        `${error.instancePath ? `at ${error.instancePath} ` : ""}${error.message ?? "invalid"}` +
        (error.params && "allowedValues" in error.params
          ? ` (${(error.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(", ")})`
          : ""),
    )
    .join("; ");
}
