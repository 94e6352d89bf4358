/**
 * Top-1 and recall@5 of the registry's index on tool-retrieval sets, next to a plain BM25
 * baseline (one field, lower-cased words, no stemming, stop words or weights; k1 1.2, b 0.75) over
 * the same tool text, computed in the same run. Queries are also counted by halves (even and odd
 * positions in each set), so that a constant tuned on one half is judged on the other.
 */
import type { SearchableEntry } from "../functions/search/search-document.js";
import { ToolSearchIndex } from "../functions/search/tool-search-index.js";
import type { RetrievalSet } from "./apibench-set.js";
import { PlainBm25 } from "./plain-bm25.js";

interface Counts {
  queries: number;
  bm25Top1: number;
  oursTop1: number;
  bm25Recall5: number;
  oursRecall5: number;
}

const ZERO: Counts = { queries: 0, bm25Top1: 0, oursTop1: 0, bm25Recall5: 0, oursRecall5: 0 };

/** Prints the table (one row per set, then all, then each half) and the top-1 gain of each. */
export function reportRetrieval(sets: RetrievalSet[]): void {
  console.log("| set | tools | queries | BM25 top-1 | ours top-1 | BM25 recall@5 | ours recall@5 |");
  console.log("|---|---:|---:|---:|---:|---:|---:|");
  const all = { ...ZERO };
  const halves = [
    { name: "even half", counts: { ...ZERO } },
    { name: "odd half", counts: { ...ZERO } },
  ];
  for (const set of sets) {
    const ours = ToolSearchIndex.build(set.tools);
    const baseline = new PlainBm25(set.tools.map((tool) => [tool.tool_id, toolText(tool)]));
    const counts = { ...ZERO };
    set.queries.forEach(({ q, expected }, position) => {
      const ranked = ours.search({ q, limit: 5 }).map((hit) => hit.tool_id);
      const plain = baseline.search(q, 5);
      const outcome: Counts = {
        queries: 1,
        oursTop1: Number(ranked[0] === expected),
        oursRecall5: Number(ranked.includes(expected)),
        bm25Top1: Number(plain[0] === expected),
        bm25Recall5: Number(plain.includes(expected)),
      };
      for (const total of [counts, all, halves[position % 2]!.counts]) add(total, outcome);
    });
    ours.close();
    console.log(row(set.name, String(set.tools.length), counts));
  }
  if (sets.length > 1) console.log(row("all", "", all));
  for (const half of halves) console.log(row(half.name, "", half.counts));
  console.log();
  for (const [name, counts] of [["all", all], ...halves.map((half) => [half.name, half.counts] as const)] as const) {
    const gain = (counts.oursTop1 - counts.bm25Top1) / counts.queries;
    console.log(`top-1 over the baseline (${name}): ${gain >= 0 ? "+" : ""}${(100 * gain).toFixed(1)} points`);
  }
}

/** Everything the registry indexes of a tool, as one text (what a one-field baseline searches). */
export function toolText(tool: SearchableEntry): string {
  const spec = tool.tool_api_spec as { entrypoints: { execute: { input: { properties: object } } } };
  const name = (tool.tool_metadata as { name?: string } | undefined)?.name ?? "";
  return [
    tool.tool_id,
    name,
    tool.tool_search_description,
    ...(tool.tool_tags as string[]),
    tool.tool_type,
    Object.keys(spec.entrypoints.execute.input.properties).join(" "),
    tool.tool_man_page_doc,
  ].join(" ");
}

function add(total: Counts, outcome: Counts): void {
  for (const key of Object.keys(total) as (keyof Counts)[]) total[key] += outcome[key];
}

function row(name: string, tools: string, counts: Counts): string {
  const share = (count: number) => (count / counts.queries).toFixed(3);
  return `| ${name} | ${tools} | ${counts.queries} | ${share(counts.bm25Top1)} | ${share(counts.oursTop1)} | ${share(counts.bm25Recall5)} | ${share(counts.oursRecall5)} |`;
}
