import { HttpProblem } from "../http-problem.js";

/**
 * `?include_yanked=`, as `GET /tools/{id}/versions` and the tool pages read it: absent or `false`
 * hides yanked versions, `true` lists them; anything else is a 400 that says what it may be.
 */
export function includeYankedParam(value: string | undefined): boolean {
  if (value === undefined || value === "false") return false;
  if (value === "true") return true;
  throw new HttpProblem(
    400,
    "Invalid include_yanked",
    `include_yanked must be "true" or "false", got ${JSON.stringify(value.slice(0, 40))}.`,
  );
}
