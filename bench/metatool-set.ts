/**
 * MetaTool's ToolE dataset (`HowieHwong/MetaTool`, dataset/) as tool-retrieval sets: each tool of
 * `plugin_des.json` becomes a tool (id = its name, description = its description there; the
 * plugin's longer `description_for_model` from `plugin_info.json`, when it has one, as its man
 * page and `name_for_human` as its name). The single-tool queries of `data/all_clean_data.csv`
 * each name their tool; the queries of `data/multi_tool_query_golden.json` name two. Nothing of
 * the dataset is stored in this repository: it is read from a local checkout (a work tree, or a
 * bare clone through `git show`).
 */
import { readCheckoutFile } from "./checkout-file.js";
import { csvRows } from "./csv-rows.js";
import { asQuery, retrievalTool, type RetrievalSet } from "./retrieval-set.js";

const SOURCE =
  "HowieHwong/MetaTool (MIT): dataset/plugin_des.json, plugin_info.json, data/all_clean_data.csv, data/multi_tool_query_golden.json";

interface PluginInfo {
  name_for_model?: string;
  name_for_human?: string;
  description_for_model?: string;
}

/**
 * The single-tool set (its even half is where the ranking's constants were chosen) and the
 * multi-tool set (held out) of the checkout at `checkout`.
 */
export function metatoolSets(checkout: string): RetrievalSet[] {
  const descriptions = JSON.parse(readCheckoutFile(checkout, "dataset/plugin_des.json")) as Record<string, string>;
  const plugins = new Map(
    (JSON.parse(readCheckoutFile(checkout, "dataset/plugin_info.json")) as PluginInfo[]).map((plugin) => [plugin.name_for_model, plugin]),
  );
  const tools = Object.entries(descriptions).map(([name, description]) =>
    retrievalTool({
      id: name,
      name: plugins.get(name)?.name_for_human ?? name,
      description,
      manPage: plugins.get(name)?.description_for_model ?? "",
    }),
  );
  const single = csvRows(readCheckoutFile(checkout, "dataset/data/all_clean_data.csv"))
    .slice(1)
    .flatMap(([q, tool]) => (q && tool && tool in descriptions ? [{ q: asQuery(q), expected: [tool] }] : []))
    .map((query, position) => ({ ...query, tuned: position % 2 === 0 }));
  const multi = (
    JSON.parse(readCheckoutFile(checkout, "dataset/data/multi_tool_query_golden.json")) as { query?: string; tool?: string[] }[]
  ).flatMap(({ query, tool }) => {
    const expected = [...new Set(tool ?? [])].filter((name) => name in descriptions);
    return query && expected.length > 0 ? [{ q: asQuery(query), expected, tuned: false }] : [];
  });
  return [
    { name: "MetaTool", source: SOURCE, tools, queries: single },
    { name: "MetaTool multi-tool", source: SOURCE, tools, queries: multi },
  ];
}
