import { HttpProblem } from "../http-problem.js";
import { ToolSearchIndex } from "./tool-search-index.js";

/** The one tool of the self-check's index: its id is also what the check searches for. */
const PROBE = { tool_id: "search-runtime-probe", version: "1.0.0", tool_search_description: "probe", tool_tags: [], tool_type: "probe" };

let checked: { problem: string | undefined } | undefined;

/**
 * Why this process cannot search, or undefined when it can: a one-tool index is built, stored as
 * bytes, opened from them and searched, exactly what the indexer and a cold search instance do
 * (`sqlite-driver.ts` picks the SQLite this Node has). Run once: at start by the search and
 * indexer functions, so a runtime that cannot is named in the first log line rather than in a 500
 * per request, and at the first catalogue search by fetch, whose cold starts serve entries and
 * should not pay for it (docs/search.md#the-sqlite-driver-on-lambda).
 */
export function searchRuntimeProblem(): string | undefined {
  if (checked === undefined) {
    let problem: string | undefined;
    try {
      const built = ToolSearchIndex.build([PROBE], 1);
      const opened = ToolSearchIndex.open(built.serialize());
      built.close();
      const found = opened.search({ q: PROBE.tool_id, limit: 1 }).map((hit) => hit.tool_id);
      opened.close();
      if (found[0] !== PROBE.tool_id)
        problem = `an index loaded from its own snapshot did not find its one tool (found ${JSON.stringify(found)})`;
    } catch (error) {
      problem = (error as Error).message;
    }
    checked = { problem: problem === undefined ? undefined : `Search cannot run on Node ${process.versions.node}: ${problem}` };
  }
  return checked.problem;
}

/** At a Lambda entry point's start: the check, its failure logged once as an error for the function's alarm and logs. */
export function checkSearchRuntimeAtStart(): void {
  const problem = searchRuntimeProblem();
  if (problem !== undefined)
    console.error(JSON.stringify({ level: "ERROR", message: "search runtime self-check failed", detail: problem }));
}

/** Before a search: a 503 that says why, rather than a 500, when this runtime cannot search. */
export function assertSearchRuntime(): void {
  const problem = searchRuntimeProblem();
  if (problem !== undefined) throw new HttpProblem(503, "Search unavailable", problem);
}
