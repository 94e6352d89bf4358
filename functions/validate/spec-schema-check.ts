import { Ajv, type ErrorObject } from "ajv";
import { TOOL_SPEC_SCHEMA } from "@agent-tools/sdk/tool-spec";
import { HttpProblem } from "../http-problem.js";
import { PROCESSING_FAILED } from "./archive-rejection.js";

/** Whatever spec.json says for these, the registry replaces them (tool.md, the archive's URL). */
const REPLACED_AT_UPLOAD = new Set(["tool_man_page_doc", "tool_source_code_link"]);

// The schema is ours and fixed: compile it once. Formats are descriptive only.
const validateSpec = new Ajv({ strict: false, allErrors: true, validateFormats: false }).compile(TOOL_SPEC_SCHEMA);

/**
 * Checks spec.json against the schema the registry serves at `GET /schemas/spec.json`, so what
 * the documentation and editors promise is what upload enforces. Keys set to `null` mean "the
 * default", and the two fields the registry replaces are ignored, as before. The field checks before it give the more specific messages;
 * this one holds the upload to the whole schema.
 */
export function checkSpecSchema(spec: Record<string, unknown>): void {
  const present = Object.fromEntries(Object.entries(spec).filter(([key, value]) => value !== null && !REPLACED_AT_UPLOAD.has(key)));
  if (validateSpec(present)) return;
  const problems = (validateSpec.errors ?? []).slice(0, 5).map(describeError);
  throw new HttpProblem(
    422,
    PROCESSING_FAILED,
    `spec.json does not match the spec.json schema (GET /schemas/spec.json): ${problems.join("; ")}.`,
  );
}

function describeError(error: ErrorObject): string {
  const where = error.instancePath === "" ? "spec.json" : error.instancePath.slice(1).replaceAll("/", ".");
  return `${where} ${error.message ?? "is invalid"}`;
}
