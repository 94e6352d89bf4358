/**
 * Tool retrieval on a public benchmark: Gorilla's APIBench (`ShishirPatil/gorilla`, data/api and
 * data/apibench). Each distinct API (api_call) of the TorchHub, TensorFlow Hub and Hugging Face sets
 * becomes a tool, from its first listing (id = api_name, description, domain and functionality as tags and type, api_arguments as input
 * properties, example code as its man page); each evaluation instruction is a query whose answer is
 * the API it was written for. Reports top-1 and recall@5 of the registry's index next to a plain
 * BM25 baseline (one field, lower-cased words, no stemming, stop words or weights; k1 1.2, b 0.75)
 * over the same tool text, computed in the same run. Nothing of the benchmark is stored in this
 * repository: the script reads a local checkout (a work tree, or a bare clone through `git show`).
 *
 *   npx tsx bench/apibench.bench.ts <path to a gorilla checkout>
 *   GORILLA_CHECKOUT=<path> npm run bench apibench    (skipped when no path is given)
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { SearchableEntry } from "../functions/search/search-document.js";
import { ToolSearchIndex } from "../functions/search/tool-search-index.js";
import { PlainBm25 } from "./plain-bm25.js";

const SETS = [
  { name: "TorchHub", api: "data/api/torchhub_api.jsonl", eval: "data/apibench/torchhub_eval.json" },
  { name: "TensorFlow Hub", api: "data/api/tensorflowhub_api.jsonl", eval: "data/apibench/tensorflow_eval.json" },
  { name: "Hugging Face", api: "data/api/huggingface_api.jsonl", eval: "data/apibench/huggingface_eval.json" },
];

const checkout = process.argv[2] ?? process.env.GORILLA_CHECKOUT;
if (checkout === undefined) {
  console.log("skipped: give the path of a ShishirPatil/gorilla checkout (argument or GORILLA_CHECKOUT)");
  process.exit(0);
}

interface Api {
  api_name?: string;
  api_call?: string;
  domain?: string;
  functionality?: string;
  framework?: string;
  description?: string;
  api_arguments?: unknown;
  example_code?: unknown;
}

console.log("| set | tools | queries | BM25 top-1 | ours top-1 | BM25 recall@5 | ours recall@5 |");
console.log("|---|---:|---:|---:|---:|---:|---:|");
const totals = { queries: 0, bm25Top1: 0, oursTop1: 0, bm25Recall5: 0, oursRecall5: 0 };
for (const set of SETS) {
  const apis = jsonLines(read(set.api)) as Api[];
  const tools = new Map<string, SearchableEntry>();
  const byCall = new Map<string, string>();
  for (const api of apis) {
    // The API lists repeat some APIs (the same call under other names): one tool per call.
    if (!api.api_name || !api.api_call || byCall.has(normaliseCall(api.api_call))) continue;
    const id = uniqueId(api.api_name, tools);
    tools.set(id, toTool(id, api));
    byCall.set(normaliseCall(api.api_call), id);
  }
  const queries = jsonLines(read(set.eval)).flatMap((row) => {
    const { code, api_data: apiData } = row as { code?: string; api_data?: Api };
    const instruction = /###Instruction:\s*([\s\S]*?)(?:\n###|$)/.exec(code ?? "")?.[1]?.trim();
    const expected = apiData?.api_call ? byCall.get(normaliseCall(apiData.api_call)) : undefined;
    return instruction && expected ? [{ q: [...instruction].slice(0, 512).join(""), expected }] : [];
  });

  const ours = ToolSearchIndex.build(tools.values());
  const baseline = new PlainBm25([...tools.values()].map((tool) => [tool.tool_id, toolText(tool)]));
  const counts = { bm25Top1: 0, oursTop1: 0, bm25Recall5: 0, oursRecall5: 0 };
  for (const { q, expected } of queries) {
    const ranked = ours.search({ q, limit: 5 }).map((hit) => hit.tool_id);
    const plain = baseline.search(q, 5);
    if (ranked[0] === expected) counts.oursTop1++;
    if (ranked.includes(expected)) counts.oursRecall5++;
    if (plain[0] === expected) counts.bm25Top1++;
    if (plain.includes(expected)) counts.bm25Recall5++;
  }
  ours.close();
  const share = (count: number) => (count / queries.length).toFixed(3);
  console.log(
    `| ${set.name} | ${tools.size} | ${queries.length} | ${share(counts.bm25Top1)} | ${share(counts.oursTop1)} | ${share(counts.bm25Recall5)} | ${share(counts.oursRecall5)} |`,
  );
  totals.queries += queries.length;
  for (const key of Object.keys(counts) as (keyof typeof counts)[]) totals[key] += counts[key];
}
const share = (count: number) => (count / totals.queries).toFixed(3);
console.log(`| all | | ${totals.queries} | ${share(totals.bm25Top1)} | ${share(totals.oursTop1)} | ${share(totals.bm25Recall5)} | ${share(totals.oursRecall5)} |`);

function read(path: string): string {
  const file = join(checkout!, path);
  if (existsSync(file)) return readFileSync(file, "utf8");
  return execFileSync("git", ["-C", checkout!, "show", `HEAD:${path}`], { encoding: "utf8", maxBuffer: 256 * 2 ** 20 });
}

function jsonLines(text: string): unknown[] {
  return text.split("\n").flatMap((line) => (line.trim() === "" ? [] : [JSON.parse(line) as unknown]));
}

function toTool(id: string, api: Api): SearchableEntry {
  const argumentNames = Array.isArray(api.api_arguments)
    ? api.api_arguments.map(String)
    : api.api_arguments !== null && typeof api.api_arguments === "object"
      ? Object.keys(api.api_arguments)
      : typeof api.api_arguments === "string"
        ? api.api_arguments.split(/[,\s]+/)
        : [];
  const properties = Object.fromEntries(argumentNames.filter((name) => name !== "").map((name) => [name, { type: "string" }]));
  return {
    tool_id: id,
    version: "1.0.0",
    tool_search_description: api.description ?? "",
    tool_tags: [api.domain, api.functionality, api.framework].filter((tag): tag is string => typeof tag === "string"),
    tool_type: api.domain ?? "",
    tool_man_page_doc: [api.api_call, ...(Array.isArray(api.example_code) ? api.example_code : [api.example_code])].filter((part) => typeof part === "string").join("\n"),
    tool_api_spec: { entrypoints: { execute: { input: { type: "object", properties } } } },
  };
}

/** Everything the registry indexes of a tool, as one text (what the baseline searches). */
function toolText(tool: SearchableEntry): string {
  const spec = tool.tool_api_spec as { entrypoints: { execute: { input: { properties: object } } } };
  return [tool.tool_id, tool.tool_search_description, ...(tool.tool_tags as string[]), tool.tool_type, Object.keys(spec.entrypoints.execute.input.properties).join(" "), tool.tool_man_page_doc].join(" ");
}

function uniqueId(name: string, taken: Map<string, unknown>): string {
  let id = name;
  for (let n = 2; taken.has(id); n++) id = `${name}~${n}`;
  return id;
}

function normaliseCall(call: string): string {
  return call.replace(/\s+/g, "").replace(/["']/g, "'");
}
