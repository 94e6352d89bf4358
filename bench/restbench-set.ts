/**
 * RestBench (`Yifan-Song793/RestGPT`) as tool-retrieval sets: each operation of the TMDB and
 * Spotify OpenAPI specs (`specs/*_oas.json`) becomes a tool (id = method and path, name = its
 * summary, description = its description, the spec's tags, its parameters with their
 * descriptions as input properties); each request of `datasets/*.json` is a query whose answer is
 * every operation of its solution path (most need two to four: "give me the number of movies
 * directed by Sofia Coppola" needs GET /search/person, then GET /person/{person_id}/movie_credits).
 * Solution steps that name no operation of the spec (three typos among 157 requests) are left
 * out. Nothing of the dataset is stored in this repository: it is read from a local checkout (a
 * work tree, or a bare clone through `git show`).
 */
import { readCheckoutFile } from "./checkout-file.js";
import { asQuery, retrievalTool, type RetrievalSet } from "./retrieval-set.js";

const SOURCE = "Yifan-Song793/RestGPT (MIT): specs/tmdb_oas.json, specs/spotify_oas.json, datasets/tmdb.json, datasets/spotify.json";
const APIS = [
  { name: "RestBench TMDB", spec: "specs/tmdb_oas.json", requests: "datasets/tmdb.json" },
  { name: "RestBench Spotify", spec: "specs/spotify_oas.json", requests: "datasets/spotify.json" },
];
const METHODS = ["get", "post", "put", "delete", "patch"];

interface Operation {
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: Parameter[];
}

interface Parameter {
  $ref?: string;
  name?: string;
  description?: string;
  schema?: { description?: string };
}

interface Spec {
  paths: Record<string, Record<string, Operation>>;
  components?: { parameters?: Record<string, Parameter> };
}

/** Both APIs' sets (held out: no constant was chosen on them). */
export function restbenchSets(checkout: string): RetrievalSet[] {
  return APIS.map((api) => {
    const spec = JSON.parse(readCheckoutFile(checkout, api.spec)) as Spec;
    const tools = Object.entries(spec.paths).flatMap(([path, operations]) =>
      Object.entries(operations).flatMap(([method, operation]) =>
        METHODS.includes(method)
          ? [
              retrievalTool({
                id: `${method.toUpperCase()} ${path}`,
                name: (operation.summary ?? "").trim(),
                description: (operation.description ?? "").trim(),
                tags: operation.tags ?? [],
                properties: Object.fromEntries(
                  (operation.parameters ?? []).flatMap((parameter) => {
                    const resolved = resolve(parameter, spec);
                    return resolved.name ? [[resolved.name, (resolved.description ?? resolved.schema?.description)?.trim()]] : [];
                  }),
                ),
              }),
            ]
          : [],
      ),
    );
    const known = new Set(tools.map((tool) => tool.tool_id));
    const requests = JSON.parse(readCheckoutFile(checkout, api.requests)) as { query?: string; solution?: string[] }[];
    const queries = requests.flatMap(({ query, solution }) => {
      const expected = [...new Set((solution ?? []).map((step) => step.trim()))].filter((step) => known.has(step));
      return query && expected.length > 0 ? [{ q: asQuery(query), expected, tuned: false }] : [];
    });
    return { name: api.name, source: SOURCE, tools, queries };
  });
}

/** A parameter, or the one of `components.parameters` that it refers to. */
function resolve(parameter: Parameter, spec: Spec): Parameter {
  const name = parameter.$ref?.match(/^#\/components\/parameters\/(.+)$/)?.[1];
  return name === undefined ? parameter : (spec.components?.parameters?.[name] ?? parameter);
}
