import { presentEntriesJson } from "../catalog/present-entry.js";
import type { PublishedEntry } from "../catalog/published-entry.js";
import { jsonText } from "../http/json-text.js";
import { RegistryError } from "../http/registry-error.js";
import { requestOrigin } from "../http/request-origin.js";
import type { RouteModule } from "./route-module.js";

/** The original registry's filters: path, query parameter, and the match on a latest entry. */
const QUERIES: { path: string; parameter: string; matches: (entry: PublishedEntry, value: string) => boolean }[] = [
  { path: "by-type", parameter: "type", matches: (entry, value) => entry.tool_type === value },
  { path: "by-tag", parameter: "tag", matches: (entry, value) => entry.tool_tags.includes(value) },
  {
    path: "by-keyword",
    parameter: "keyword",
    // A plain case-insensitive substring (the original passed the keyword to Mongo as a regex).
    matches: (entry, value) => entry.tool_search_description.toLowerCase().includes(value.toLowerCase()),
  },
  { path: "by-execution-mode", parameter: "mode", matches: (entry, value) => entry.tool_execution_mode === value },
  { path: "by-policy-uri", parameter: "uri", matches: (entry, value) => entry.tool_policy_rule_uri === value },
];

/** `GET /tools/query/by-{type,tag,keyword,execution-mode,policy-uri}`: bare arrays of latest entries. */
export const queryToolsRoute: RouteModule = (app, deps) => {
  for (const query of QUERIES) {
    app.get(`/tools/query/${query.path}`, async (c) => {
      const value = c.req.query(query.parameter);
      if (value === undefined || value === "") {
        throw new RegistryError(
          400,
          "Missing query parameter",
          `GET /tools/query/${query.path} needs ?${query.parameter}=<value>.`,
        );
      }
      const origin = requestOrigin(c, deps.config.publicUrl);
      const entries = await deps.reader.allLatest();
      return jsonText(c, presentEntriesJson(entries.filter((entry) => query.matches(entry, value)), origin));
    });
  }
};
