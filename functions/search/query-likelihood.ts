/**
 * How well a tool matches a query: Dirichlet-smoothed query likelihood (Zhai and Lafferty, "A
 * study of smoothing methods for language models applied to ad hoc information retrieval", 2001)
 * over the tool's weighted fields. The tool is a bag of terms in which a word of its id counts
 * `FIELD_WEIGHTS.name` times, a word of its man page `MAN_PAGE_WEIGHT` times, and so on; its score
 * is how much likelier the query is from that bag, smoothed by the whole catalogue, than from the
 * catalogue alone. Ranked that way, a score is a sum over query terms of a part that depends only
 * on the term and the tool (`termEvidence`, so per-term postings can be cached and added up:
 * term-scores.ts) plus one that depends only on the tool's length (`lengthPrior`).
 *
 * Why not BM25: tool requests are often long task descriptions ("I am working on a project where
 * I need to cluster similar images of street art…") matched against short descriptions. BM25
 * saturates each term and normalises length only partly, so a long, sprawling description that
 * happens to use many of the request's incidental words outranks the short one that names the
 * task; the likelihood of the whole request keeps favouring the tool whose own few words the
 * request uses. Measured on two public sets in docs/search.md ("Relevance").
 */

/** Weights of the short fields (`SHORT_FIELDS` order): a word in the id or name says most about a tool. */
export const FIELD_WEIGHTS = { name: 3, tags: 2.5, description: 2, type: 1, params: 1 } as const;
/**
 * A man page word counts as much as one of the type or input properties: a man page is long, so
 * each of its words is a small share of the tool's language, and the short fields still decide.
 */
export const MAN_PAGE_WEIGHT = 1;
/**
 * The Dirichlet prior μ, in weighted terms: how much of the catalogue's language is mixed into
 * each tool's. Tool texts are short (tens of weighted terms), so a small μ: the tool's own words
 * dominate, and the length prior favours concise tools.
 */
const SMOOTHING = 10;

/** What one occurrence count of a term in a tool (weighted) adds to the tool's score. */
export function termEvidence(weightedCount: number, catalogueShare: number): number {
  return Math.log(1 + weightedCount / (SMOOTHING * catalogueShare));
}

/** The part of a tool's score that depends on its (weighted) length, for a query of total term weight `queryWeight`. */
export function lengthPrior(queryWeight: number, length: number): number {
  return queryWeight * Math.log(SMOOTHING / (length + SMOOTHING));
}

/** How much a term used `count` times in the query weighs: more for a repeated word, sublinearly. */
export function queryTermWeight(count: number): number {
  return 1 + Math.log(count);
}
