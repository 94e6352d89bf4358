/**
 * Seal-Tools (`fairyshine/Seal-Tools`, Seal-Tools_Dataset/) as a tool-retrieval set: each API of
 * `tool.jsonl` becomes a tool (id = api_name, description = api_description, its field's
 * domain as type and sub-field as tag, its parameters as input properties with their
 * descriptions, what it returns as its man page); each request of the dev, in-domain test and
 * out-of-domain test splits is a query whose answer is every API its calls use (most requests
 * need three or four). Nothing of the dataset is stored in this repository: it is read from a
 * local checkout (a work tree, or a bare clone through `git show`).
 */
import { readCheckoutFile } from "./checkout-file.js";
import { asQuery, jsonLines, retrievalTool, type RetrievalSet } from "./retrieval-set.js";

const SOURCE = "fairyshine/Seal-Tools (Apache-2.0): Seal-Tools_Dataset/tool.jsonl, dev.jsonl, test_in_domain.jsonl, test_out_domain.jsonl";

/** The dev split is where the ranking's constants were chosen; both test splits are held out. */
const SPLITS = [
  { file: "Seal-Tools_Dataset/dev.jsonl", tuned: true },
  { file: "Seal-Tools_Dataset/test_in_domain.jsonl", tuned: false },
  { file: "Seal-Tools_Dataset/test_out_domain.jsonl", tuned: false },
];

interface Api {
  api_name?: string;
  api_description?: string;
  field?: string;
  parameters?: Record<string, { description?: unknown }>;
  responses?: Record<string, { description?: unknown }>;
}

interface Request {
  query?: string;
  calling?: { api?: string }[];
}

export function sealToolsSet(checkout: string): RetrievalSet {
  const tools = (jsonLines(readCheckoutFile(checkout, "Seal-Tools_Dataset/tool.jsonl")) as Api[]).flatMap((api) => {
    if (!api.api_name) return [];
    const [domain = "", subfield] = (api.field ?? "").split("/");
    return [
      retrievalTool({
        id: api.api_name,
        description: api.api_description ?? "",
        type: domain,
        tags: subfield === undefined ? [] : [subfield],
        properties: Object.fromEntries(
          Object.entries(api.parameters ?? {}).map(([name, parameter]) => [name, text(parameter.description)]),
        ),
        manPage: Object.entries(api.responses ?? {})
          .map(([name, response]) => `${name}: ${text(response.description) ?? ""}`)
          .join("\n"),
      }),
    ];
  });
  const known = new Set(tools.map((tool) => tool.tool_id));
  const queries = SPLITS.flatMap(({ file, tuned }) =>
    (jsonLines(readCheckoutFile(checkout, file)) as Request[]).flatMap(({ query, calling }) => {
      const expected = [...new Set((calling ?? []).map((call) => call.api ?? ""))].filter((api) => known.has(api));
      return query && expected.length > 0 ? [{ q: asQuery(query), expected, tuned }] : [];
    }),
  );
  return { name: "Seal-Tools", source: SOURCE, tools, queries };
}

function text(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}
