import { HttpProblem } from "../http-problem.js";

export function toolNotFound(toolId: string, version?: string): HttpProblem {
  return new HttpProblem(
    404,
    "Tool not found",
    version === undefined
      ? `No tool with id "${toolId}" is published; list the published tools with GET /tools.`
      : `Tool "${toolId}" has no version "${version}"; list its versions with GET /tools/${toolId}/versions.`,
  );
}

/** Every stored version is yanked: no latest, but exact pins still resolve. */
export function allYanked(toolId: string): HttpProblem {
  return new HttpProblem(
    404,
    "Tool not found",
    `Every version of "${toolId}" is yanked, so it has no latest version; pin one exactly (GET ` +
      `/tools/${toolId}/versions/{version}), list them with GET /tools/${toolId}/versions?include_yanked=true, or ask its publisher.`,
  );
}
