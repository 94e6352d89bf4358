import { HttpProblem } from "../http-problem.js";
import { describe } from "../entry/field-types.js";
import { PROCESSING_FAILED } from "./archive-rejection.js";

const TOOL_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;
const EXAMPLE = 'e.g. "text-stats" or "acme.text-stats.v2"';

/**
 * The spec's `tool_id`, which becomes a URL segment and a storage key:
 * `^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$` without `..`. The detail names the exact offence.
 */
export function toolIdOf(spec: Record<string, unknown>): string {
  const id = spec.tool_id;
  if (id === undefined || id === null) fail(`spec.json has no tool_id. Add one, ${EXAMPLE}.`);
  if (typeof id !== "string") fail(`tool_id must be a string, but it is ${describe(id)}. Use ${EXAMPLE}.`);
  const problem = idProblem(id);
  if (problem !== undefined)
    fail(
      `tool_id ${JSON.stringify(id.length > 60 ? `${id.slice(0, 60)}…` : id)} is invalid: ${problem}. Ids are 1-128 letters, digits, ".", "_" or "-", starting with a letter or digit, ${EXAMPLE}.`,
    );
  return id;
}

/** Whether `value` is a valid tool id (routes check path segments with it before storage is touched). */
export function isToolId(value: string): boolean {
  return idProblem(value) === undefined;
}

/** What is wrong with `id` as a tool id, in words; undefined when it is valid. */
export function idProblem(id: string): string | undefined {
  if (id.length === 0) return "it is empty";
  if (id.length > 128) return `it is ${id.length} characters long, over the limit of 128`;
  if (id.includes("/")) return 'it contains "/", which would split the URL /tools/{id}; use "-" or "." instead';
  if (/\s/.test(id)) return 'it contains whitespace; use "-" instead of spaces';
  if (id.includes("..")) return 'it contains "..", which reads as a parent-folder reference';
  if (!/^[A-Za-z0-9]/.test(id)) return `it starts with ${JSON.stringify(id[0])}; start with a letter or digit`;
  const bad = [...new Set(id.replace(/[A-Za-z0-9._-]/g, ""))];
  if (bad.length > 0) return `it contains ${bad.map((char) => JSON.stringify(char)).join(", ")}`;
  return TOOL_ID.test(id) ? undefined : "it does not match the id pattern";
}

function fail(detail: string): never {
  throw new HttpProblem(422, PROCESSING_FAILED, detail);
}
