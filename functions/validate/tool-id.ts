import { toolIdProblem } from "@agent-tools/sdk/tool-spec";

/** What is wrong with `id` as a tool id, in words; undefined when it is valid (the rule is spec.json's, in the SDK). */
export const idProblem = toolIdProblem;

/** Whether `value` is a valid tool id (routes check path segments with it before storage is touched). */
export function isToolId(value: string): boolean {
  return toolIdProblem(value) === undefined;
}
