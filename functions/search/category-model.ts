/**
 * Which `tool_type` a query is about, learnt from the catalogue itself: each type is the pooled
 * text of its tools (a multinomial naive Bayes classifier with Dirichlet smoothing), and a tool's
 * score gets `CATEGORY_WEIGHT` times the log of its type's posterior probability. A request rarely
 * names the one tool it needs, but its words together say the kind of tool ("cluster images…
 * feature vectors" is about image feature vectors, not text embeddings): a tool of the likely
 * type wins over one of another type that happens to share a rare word with the request. With one
 * type (or none) in the catalogue the posterior is 1 for all and nothing changes.
 */

/** How much the log posterior of a tool's type adds to its score (query-likelihood units). */
export const CATEGORY_WEIGHT = 1;
/**
 * The Dirichlet prior μ of a type's language, as a share of the average type's length (the usual
 * choice for μ is about a document's length): a type is smoothed by about as much catalogue text
 * as it has text of its own.
 */
const CATEGORY_SMOOTHING = 1;
/** Floor of a posterior, so that an unlikely type lowers a tool's score by a bounded amount. */
const MIN_POSTERIOR = 1e-4;

/** One query term as the model reads it: its weight in the query, its share of the catalogue, and the tools (by category) that use it. */
export interface CategoryEvidence {
  weight: number;
  catalogueShare: number;
  /** Weighted occurrences of the term per category index. */
  counts: ReadonlyMap<number, number>;
}

export class CategoryModel {
  /**
   * `categoryOf[rowid]` is the category index of a row; `lengths[category]` the weighted length of
   * all its tools' text.
   */
  private readonly smoothing: number;

  constructor(
    readonly categoryOf: Int32Array,
    private readonly lengths: Float64Array,
  ) {
    const total = lengths.reduce((sum, length) => sum + length, 0);
    this.smoothing = CATEGORY_SMOOTHING * Math.max(1, total / Math.max(1, lengths.length));
  }

  /** Weighted occurrences of a term per category, from its postings (rowids and weighted counts). */
  countsOf(rowids: Int32Array, weightedCounts: Float32Array): Map<number, number> {
    const counts = new Map<number, number>();
    for (let i = 0; i < rowids.length; i++) {
      const category = this.categoryOf[rowids[i]!];
      if (category === undefined || category < 0) continue;
      counts.set(category, (counts.get(category) ?? 0) + weightedCounts[i]!);
    }
    return counts;
  }

  /** `CATEGORY_WEIGHT` × log P(category | query) for every category index. */
  scores(terms: readonly CategoryEvidence[]): Float64Array {
    const categories = this.lengths.length;
    const scores = new Float64Array(categories);
    if (categories < 2 || terms.length === 0) return scores;
    // log P(query | category) up to a term that is the same for every category (a softmax ignores it).
    const totalWeight = terms.reduce((sum, term) => sum + term.weight, 0);
    for (let category = 0; category < categories; category++) {
      scores[category] = -totalWeight * Math.log(this.lengths[category]! + this.smoothing);
    }
    for (const term of terms) {
      const prior = this.smoothing * term.catalogueShare;
      for (const [category, count] of term.counts) scores[category]! += term.weight * Math.log(1 + count / prior);
    }
    let best = Number.NEGATIVE_INFINITY;
    for (const score of scores) best = Math.max(best, score);
    let total = 0;
    for (const score of scores) total += Math.exp(score - best);
    const logTotal = best + Math.log(total);
    for (let category = 0; category < categories; category++) {
      scores[category] = CATEGORY_WEIGHT * Math.log(Math.max(MIN_POSTERIOR, Math.exp(scores[category]! - logTotal)));
    }
    return scores;
  }
}
