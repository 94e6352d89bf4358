import { createHash } from "node:crypto";
import { Ajv, type ErrorObject } from "ajv";
import { Ajv2019 } from "ajv/dist/2019.js";
import { Ajv2020 } from "ajv/dist/2020.js";
import { HttpProblem } from "../http-problem.js";
import { describe, isPlainObject } from "../entry/field-types.js";
import { PROCESSING_FAILED } from "./archive-rejection.js";

const SCHEMA_PATH = "tool_api_spec.entrypoints.execute.input";
// Custom keywords are allowed (OpenAI ignores them); formats are not checked at upload.
const OPTIONS = { strict: false, allErrors: true, validateFormats: false, addUsedSchema: false } as const;
const dialects = { draft7: new Ajv(OPTIONS), draft2019: new Ajv2019(OPTIONS), draft2020: new Ajv2020(OPTIONS) };

/**
 * Checks `tool_api_spec.entrypoints.execute.input`, when present: LLM search sends it as the
 * function's parameter schema, so it must be a valid JSON Schema (draft-07 unless `$schema`
 * names 2019-09 or 2020-12) describing an object.
 */
export function checkInputSchema(apiSpec: Record<string, unknown>): void {
  const schema = walk(apiSpec, ["entrypoints", "execute", "input"]);
  if (schema === undefined) return;
  if (!isPlainObject(schema))
    fail(
      `must be a JSON Schema object, but it is ${describe(schema)}. Example: {"type": "object", "properties": {"text": {"type": "string"}}}`,
    );
  if (schema.type !== undefined && schema.type !== "object") {
    fail(
      `must describe an object (LLM function parameters are always an object), but its type is ${JSON.stringify(schema.type)}. Wrap the value: {"type": "object", "properties": {"value": ...}}`,
    );
  }
  // New versions of a tool mostly keep its schema: judge each distinct schema once.
  const key = createHash("sha256").update(JSON.stringify(schema)).digest("hex");
  const known = verdicts.get(key);
  if (known === undefined) {
    const verdict = judge(schema);
    if (verdicts.size >= MAX_REMEMBERED_SCHEMAS) verdicts.delete(verdicts.keys().next().value!);
    verdicts.set(key, verdict);
    if (verdict !== OK) fail(verdict);
  } else if (known !== OK) fail(known);
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

/** The value at `keys`, or undefined when absent; a non-object on the way is an error. */
function walk(root: Record<string, unknown>, keys: string[]): unknown {
  let value: unknown = root;
  const path = ["tool_api_spec"];
  for (const key of keys) {
    if (value === undefined || value === null) return undefined;
    if (!isPlainObject(value)) {
      throw new HttpProblem(
        422,
        PROCESSING_FAILED,
        `${path.join(".")} must be an object, but it is ${describe(value)}. Expected shape: {"entrypoints": {"execute": {"input": <JSON Schema>}}}.`,
      );
    }
    value = value[key];
    path.push(key);
  }
  return value ?? undefined;
}

function explain(errors: ErrorObject[]): string {
  return errors
    .slice(0, 5)
    .map(
      (error) =>
        `${error.instancePath ? `at ${error.instancePath} ` : ""}${error.message ?? "invalid"}${error.params && "allowedValues" in error.params ? ` (${(error.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(", ")})` : ""}`,
    )
    .join("; ");
}

function fail(problem: string): never {
  throw new HttpProblem(422, PROCESSING_FAILED, `${SCHEMA_PATH} ${problem}`);
}
