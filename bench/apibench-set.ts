/**
 * Gorilla's APIBench (`ShishirPatil/gorilla`, data/api and data/apibench) as tool-retrieval sets:
 * each distinct API (api_call) of the TorchHub, TensorFlow Hub and Hugging Face lists becomes a
 * tool, from its first listing (id = api_name, description, domain and functionality as tags and
 * type, api_arguments as input properties, example code as its man page); each evaluation
 * instruction is a query whose answer is the API it was written for. Nothing of the benchmark is
 * stored in this repository: it is read from a local checkout (a work tree, or a bare clone
 * through `git show`).
 */
import type { SearchableEntry } from "../functions/search/search-document.js";
import { readCheckoutFile } from "./checkout-file.js";
import { asQuery, jsonLines, retrievalTool, type RetrievalSet } from "./retrieval-set.js";

const SOURCE = "ShishirPatil/gorilla (Apache-2.0): data/api/*_api.jsonl, data/apibench/*_eval.json";

const SETS = [
  { name: "TorchHub", api: "data/api/torchhub_api.jsonl", eval: "data/apibench/torchhub_eval.json" },
  { name: "TensorFlow Hub", api: "data/api/tensorflowhub_api.jsonl", eval: "data/apibench/tensorflow_eval.json" },
  { name: "Hugging Face", api: "data/api/huggingface_api.jsonl", eval: "data/apibench/huggingface_eval.json" },
];

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

/** The three sets of the checkout at `checkout`. */
export function apibenchSets(checkout: string): RetrievalSet[] {
  return SETS.map((set) => {
    const tools = new Map<string, SearchableEntry>();
    const byCall = new Map<string, string>();
    for (const api of jsonLines(readCheckoutFile(checkout, set.api)) as Api[]) {
      // The API lists repeat some APIs (the same call under other names): one tool per call.
      if (!api.api_name || !api.api_call || byCall.has(normaliseCall(api.api_call))) continue;
      const id = uniqueId(api.api_name, tools);
      tools.set(id, toTool(id, api));
      byCall.set(normaliseCall(api.api_call), id);
    }
    const instructions = jsonLines(readCheckoutFile(checkout, set.eval)).flatMap((row) => {
      const { code, api_data: apiData } = row as { code?: string; api_data?: Api };
      const instruction = /###Instruction:\s*([\s\S]*?)(?:\n###|$)/.exec(code ?? "")?.[1]?.trim();
      const expected = apiData?.api_call ? byCall.get(normaliseCall(apiData.api_call)) : undefined;
      return instruction && expected ? [{ instruction, expected }] : [];
    });
    // The even half (by position in its set) is where the ranking's constants were chosen.
    const queries = instructions.map(({ instruction, expected }, position) => ({
      q: asQuery(instruction),
      expected: [expected],
      tuned: position % 2 === 0,
    }));
    return { name: set.name, source: SOURCE, tools: [...tools.values()], queries };
  });
}

function toTool(id: string, api: Api): SearchableEntry {
  const argumentNames = Array.isArray(api.api_arguments)
    ? api.api_arguments.map(String)
    : api.api_arguments !== null && typeof api.api_arguments === "object"
      ? Object.keys(api.api_arguments)
      : typeof api.api_arguments === "string"
        ? api.api_arguments.split(/[,\s]+/)
        : [];
  return retrievalTool({
    id,
    description: api.description ?? "",
    tags: [api.domain, api.functionality, api.framework].filter((tag): tag is string => typeof tag === "string"),
    type: api.domain ?? "",
    manPage: [api.api_call, ...(Array.isArray(api.example_code) ? api.example_code : [api.example_code])]
      .filter((part) => typeof part === "string")
      .join("\n"),
    properties: Object.fromEntries(argumentNames.filter((name) => name !== "").map((name) => [name, undefined])),
  });
}

function uniqueId(name: string, taken: Map<string, unknown>): string {
  let id = name;
  for (let n = 2; taken.has(id); n++) id = `${name}~${n}`;
  return id;
}

function normaliseCall(call: string): string {
  return call.replace(/\s+/g, "").replace(/["']/g, "'");
}
