import { HttpProblem } from "../http-problem.js";
import { describe, isPlainObject } from "../entry/field-types.js";
import { PROCESSING_FAILED } from "./archive-rejection.js";

/** `spec.json` as a JSON object (UTF-8, a leading BOM tolerated). */
export function parseSpec(bytes: Uint8Array): Record<string, unknown> {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw invalidSpec("spec.json is not UTF-8 text. Save it as UTF-8 JSON.");
  }
  let spec: unknown;
  try {
    spec = JSON.parse(text);
  } catch (error) {
    throw invalidSpec(`spec.json is not valid JSON (${(error as Error).message}). Check it with: python3 -m json.tool spec.json`);
  }
  if (!isPlainObject(spec)) {
    throw invalidSpec(`spec.json must be a JSON object ({"tool_id": ..., ...}), but it is ${describe(spec)}.`);
  }
  return spec;
}

/** spec.json cannot be read as a JSON object at all: 400, before any rule is judged. */
function invalidSpec(detail: string): HttpProblem {
  return new HttpProblem(400, PROCESSING_FAILED, detail, {}, "INVALID_SPEC");
}
