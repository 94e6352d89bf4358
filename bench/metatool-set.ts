/**
 * MetaTool's ToolE dataset (`HowieHwong/MetaTool`, dataset/) as a tool-retrieval set: each tool of
 * `plugin_des.json` becomes a tool (id = its name, description = its description there; the
 * plugin's longer `description_for_model` from `plugin_info.json`, when it has one, as its man
 * page and `name_for_human` as its name); each single-tool query of `data/all_clean_data.csv` is a
 * query whose answer is its tool. Nothing of the dataset is stored in this repository: it is read
 * from a local checkout (a work tree, or a bare clone through `git show`).
 */
import type { SearchableEntry } from "../functions/search/search-document.js";
import { MAX_QUERY_CHARS } from "../functions/search/search-query.js";
import type { RetrievalSet } from "./apibench-set.js";
import { readCheckoutFile } from "./checkout-file.js";

interface PluginInfo {
  name_for_model?: string;
  name_for_human?: string;
  description_for_model?: string;
}

/** The single-tool set of the checkout at `checkout`. */
export function metatoolSet(checkout: string): RetrievalSet {
  const descriptions = JSON.parse(readCheckoutFile(checkout, "dataset/plugin_des.json")) as Record<string, string>;
  const plugins = new Map(
    (JSON.parse(readCheckoutFile(checkout, "dataset/plugin_info.json")) as PluginInfo[]).map((plugin) => [plugin.name_for_model, plugin]),
  );
  const tools: SearchableEntry[] = Object.entries(descriptions).map(([name, description]) => ({
    tool_id: name,
    version: "1.0.0",
    tool_search_description: description,
    tool_metadata: { name: plugins.get(name)?.name_for_human ?? name },
    tool_tags: [],
    tool_type: "",
    tool_man_page_doc: plugins.get(name)?.description_for_model ?? "",
    tool_api_spec: { entrypoints: { execute: { input: { type: "object", properties: {} } } } },
  }));
  const queries = csvRows(readCheckoutFile(checkout, "dataset/data/all_clean_data.csv"))
    .slice(1)
    .flatMap(([q, tool]) =>
      q && tool && tool in descriptions ? [{ q: [...q.trim()].slice(0, MAX_QUERY_CHARS).join(""), expected: tool }] : [],
    );
  return { name: "MetaTool", tools, queries };
}

/** Rows of a CSV text (RFC 4180: quoted fields may hold commas, newlines and doubled quotes). */
function csvRows(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let at = 0; at < text.length; at++) {
    const char = text[at]!;
    if (quoted) {
      if (char === '"' && text[at + 1] === '"') {
        field += '"';
        at++;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === ",") {
      row.push(field);
      field = "";
    } else if (char === "\n" || char === "\r") {
      if (char === "\r" && text[at + 1] === "\n") at++;
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
    } else field += char;
  }
  if (field !== "" || row.length > 0) rows.push([...row, field]);
  return rows;
}
