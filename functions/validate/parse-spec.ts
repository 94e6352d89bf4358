import { HttpProblem } from "../http-problem.js";
import { describe, isPlainObject } from "../entry/field-types.js";
import { PROCESSING_FAILED } from "./archive-rejection.js";

/** `spec.json` as a JSON object (UTF-8, a leading BOM tolerated). */
export function parseSpec(bytes: Uint8Array): Record<string, unknown> {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw new HttpProblem(400, PROCESSING_FAILED, "spec.json is not UTF-8 text. Save it as UTF-8 JSON.");
  }
  let spec: unknown;
  try {
    spec = JSON.parse(text);
  } catch (error) {
    throw new HttpProblem(
      400,
      PROCESSING_FAILED,
      `spec.json is not valid JSON (${(error as Error).message}). Check it with: python3 -m json.tool spec.json`,
    );
  }
  if (!isPlainObject(spec)) {
    throw new HttpProblem(400, PROCESSING_FAILED, `spec.json must be a JSON object ({"tool_id": ..., ...}), but it is ${describe(spec)}.`);
  }
  return spec;
}
