/** The short fields of a tool (its man page is the long one). */
export type ShortField = "name" | "tags" | "description" | "type" | "params";

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

/**
 * Index key classes: `n` the light form of a name or id word, `s` the stemmed form of a short
 * field's word, `m` the stemmed form of a man page word (search-document.ts); and for filters,
 * not ranking, `y` a tool's exact type and `t` each of its exact tags.
 */
export type IndexKeyClass = "n" | "s" | "m" | "y" | "t";

/**
 * How each short field is indexed, as data: the form of its words, their key class, and their
 * weight (in halves: inverted-index.ts counts half-units). A word of the id or name says most
 * about a tool, 3 in all when the request uses the same word (2 for its light form, 1 for its
 * stemmed form); a request word that only stems like it ("passing" and `list-passes`) counts 1,
 * as a stemmed match in prose would: names and ids are not prose. Then tags 2.5, the description
 * 2, the type and input properties (names and descriptions) once.
 */
export const FIELD_INDEXING: readonly {
  field: ShortField;
  form: "light" | "stemmed";
  keyClass: IndexKeyClass;
  weight: number;
}[] = [
  { field: "name", form: "light", keyClass: "n", weight: 2 },
  { field: "name", form: "stemmed", keyClass: "s", weight: 1 },
  { field: "tags", form: "stemmed", keyClass: "s", weight: 2.5 },
  { field: "description", form: "stemmed", keyClass: "s", weight: 2 },
  { field: "type", form: "stemmed", keyClass: "s", weight: 1 },
  { field: "params", form: "stemmed", keyClass: "s", weight: 1 },
];
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

/**
 * The part of a tool's score that depends on its (weighted) length, per unit of query weight (a
 * query of total term weight w adds w times this): kept per row (catalogue-statistics.ts), so a
 * search multiplies instead of taking a logarithm per row.
 */
export function lengthPrior(length: number): number {
  return Math.log(SMOOTHING / (length + SMOOTHING));
}

/** How much a term used `count` times in the query weighs: more for a repeated word, sublinearly. */
export function queryTermWeight(count: number): number {
  return 1 + Math.log(count);
}
