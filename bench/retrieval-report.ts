/**
 * Top-1 and recall@5 of the registry's index on tool-retrieval sets, next to two baselines over
 * the same tool text computed in the same run: a textbook BM25 (one field, lower-cased words, no
 * stemming, stop words or weights; k1 1.2, b 0.75) and SQLite FTS5 with the porter stemmer
 * (fts5-porter.ts). Each set is reported by part: the queries its constants were chosen on
 * ("tuned") and the rest ("held out"), see retrieval-set.ts.
 *
 * Top-1: the first result is one of the query's tools. Recall@5: the share of the query's tools
 * among the first five results (a request that needs three tools and finds two scores 2/3). A
 * result of ours that stands for near-duplicates (`similar_tool_ids`, shown as "n similar")
 * counts for the tools it names: they are in the answer, one slot for all.
 */
import { inputSchemaText, type SearchableEntry } from "../functions/search/search-document.js";
import { ToolSearchIndex } from "../functions/search/tool-search-index.js";
import { Fts5Porter } from "./fts5-porter.js";
import { PlainBm25 } from "./plain-bm25.js";
import type { RetrievalQuery, RetrievalSet } from "./retrieval-set.js";

const RANKERS = ["bm25", "fts5", "ours"] as const;
type Ranker = (typeof RANKERS)[number];

interface Counts {
  queries: number;
  top1: Record<Ranker, number>;
  recall5: Record<Ranker, number>;
}

/** Prints the table (one row per set and part, then every held-out query together) and the held-out gains. */
export function reportRetrieval(sets: RetrievalSet[]): void {
  console.log(
    "| set | part | tools | queries | BM25 top-1 | FTS5 top-1 | ours top-1 " +
      "| BM25 recall@5 | FTS5 recall@5 | ours recall@5 | recall@5 over FTS5 |",
  );
  console.log("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
  const heldOut = new Map<string, Counts>();
  for (const set of sets) {
    const parts = { tuned: emptyCounts(), "held out": emptyCounts() };
    const rankers = rankersOf(set.tools);
    for (const query of set.queries) add(parts[query.tuned ? "tuned" : "held out"], outcome(query, rankers));
    rankers.close();
    for (const [part, counts] of Object.entries(parts)) {
      if (counts.queries > 0) console.log(row(set.name, part, String(set.tools.length), counts));
    }
    if (parts["held out"].queries > 0) heldOut.set(set.name, parts["held out"]);
  }
  const allHeldOut = emptyCounts();
  for (const counts of heldOut.values()) add(allHeldOut, counts);
  if (heldOut.size > 1) console.log(row("all held-out queries", "held out", "", allHeldOut));
  console.log();
  for (const [name, counts] of heldOut) {
    const points = (metric: Record<Ranker, number>, baseline: Ranker) => signed((100 * (metric.ours - metric[baseline])) / counts.queries);
    console.log(
      `${name}, held out: recall@5 ${points(counts.recall5, "fts5")} points over FTS5+porter ` +
        `(${points(counts.recall5, "bm25")} over BM25), top-1 ${points(counts.top1, "fts5")} (${points(counts.top1, "bm25")})`,
    );
  }
}

/** Everything the registry indexes of a tool, as one text (what the one-field baselines search). */
export function toolText(tool: SearchableEntry): string {
  const name = (tool.tool_metadata as { name?: string } | undefined)?.name ?? "";
  return [
    tool.tool_id,
    name,
    tool.tool_search_description,
    ...(tool.tool_tags as string[]),
    tool.tool_type,
    inputSchemaText(tool.tool_api_spec),
    tool.tool_man_page_doc,
  ].join(" ");
}

interface Rankers {
  /** Each of the first five results as the tools it names. */
  search: Record<Ranker, (q: string) => string[][]>;
  close(): void;
}

function rankersOf(tools: SearchableEntry[]): Rankers {
  const ours = ToolSearchIndex.build(tools);
  const documents = tools.map((tool) => [tool.tool_id, toolText(tool)] as const);
  const bm25 = new PlainBm25(documents.map(([id, text]) => [id, text]));
  const fts5 = Fts5Porter.build(documents);
  return {
    search: {
      bm25: (q) => bm25.search(q, 5).map((id) => [id]),
      fts5: (q) => fts5.search(q, 5).map((id) => [id]),
      ours: (q) => ours.search({ q, limit: 5 }).map((hit) => [hit.tool_id, ...(hit.similar_tool_ids ?? [])]),
    },
    close() {
      ours.close();
      fts5.close();
    },
  };
}

function outcome(query: RetrievalQuery, rankers: Rankers): Counts {
  const counts = emptyCounts();
  counts.queries = 1;
  const expected = new Set(query.expected);
  for (const ranker of RANKERS) {
    const top5 = rankers.search[ranker](query.q);
    counts.top1[ranker] = Number((top5[0] ?? []).some((id) => expected.has(id)));
    counts.recall5[ranker] = top5.flat().filter((id) => expected.has(id)).length / expected.size;
  }
  return counts;
}

function emptyCounts(): Counts {
  return { queries: 0, top1: { bm25: 0, fts5: 0, ours: 0 }, recall5: { bm25: 0, fts5: 0, ours: 0 } };
}

function add(total: Counts, counts: Counts): void {
  total.queries += counts.queries;
  for (const ranker of RANKERS) {
    total.top1[ranker] += counts.top1[ranker];
    total.recall5[ranker] += counts.recall5[ranker];
  }
}

function row(name: string, part: string, tools: string, counts: Counts): string {
  const share = (count: number) => (count / counts.queries).toFixed(3);
  const cells = [...RANKERS.map((ranker) => share(counts.top1[ranker])), ...RANKERS.map((ranker) => share(counts.recall5[ranker]))];
  const gain = signed((100 * (counts.recall5.ours - counts.recall5.fts5)) / counts.queries);
  return `| ${name} | ${part} | ${tools} | ${counts.queries} | ${cells.join(" | ")} | ${gain} |`;
}

function signed(value: number): string {
  return `${value >= 0 ? "+" : ""}${value.toFixed(1)}`;
}
