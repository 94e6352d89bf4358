/**
 * Which `tool_type` a query is about, learnt from the catalogue itself: each type is the pooled
 * text of its tools (a multinomial naive Bayes classifier with Dirichlet smoothing), and a tool's
 * score gets `CATEGORY_WEIGHT` times the log of its type's posterior probability. A request rarely
 * names the one tool it needs, but its words together say the kind of tool ("cluster images…
 * feature vectors" is about image feature vectors, not text embeddings): a tool of the likely
 * type wins over one of another type that happens to share a rare word with the request. With one
 * type (or none) in the catalogue the posterior is 1 for all and nothing changes.
 */
import type { CatalogueStatistics } from "./catalogue-statistics.js";

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
  /** `statistics` gives the catalogue as it is now (it changes with every write). */
  constructor(private readonly statistics: () => Pick<CatalogueStatistics, "categoryOf" | "categoryLengths" | "categoryTools">) {}

  /** Weighted occurrences of a term per category, from its postings (rowids and weighted counts). */
  countsOf(rowids: Int32Array, weightedCounts: Float32Array): Map<number, number> {
    const statistics = this.statistics();
    const sums = new Float64Array(statistics.categoryLengths.length);
    for (let i = 0; i < rowids.length; i++) {
      const category = statistics.categoryOf(rowids[i]!);
      if (category >= 0) sums[category]! += weightedCounts[i]!;
    }
    const counts = new Map<number, number>();
    for (const [category, sum] of sums.entries()) if (sum !== 0) counts.set(category, sum);
    return counts;
  }

  /** `CATEGORY_WEIGHT` × log P(category | query) for every category index (categories without tools left at 0: no row has them). */
  scores(terms: readonly CategoryEvidence[]): Float64Array {
    const { categoryLengths: lengths, categoryTools: tools } = this.statistics();
    const scores = new Float64Array(lengths.length);
    const live = [...lengths.keys()].filter((category) => tools[category]! > 0);
    if (live.length < 2 || terms.length === 0) return scores;
    const total = live.reduce((sum, category) => sum + lengths[category]!, 0);
    const smoothing = CATEGORY_SMOOTHING * Math.max(1, total / live.length);
    // log P(query | category) up to a term that is the same for every category (a softmax ignores it).
    const totalWeight = terms.reduce((sum, term) => sum + term.weight, 0);
    for (const category of live) scores[category] = -totalWeight * Math.log(lengths[category]! + smoothing);
    for (const term of terms) {
      const prior = smoothing * term.catalogueShare;
      for (const [category, count] of term.counts) {
        if (tools[category]! > 0) scores[category]! += term.weight * Math.log(1 + count / prior);
      }
    }
    let best = Number.NEGATIVE_INFINITY;
    for (const category of live) best = Math.max(best, scores[category]!);
    let sum = 0;
    for (const category of live) sum += Math.exp(scores[category]! - best);
    const logTotal = best + Math.log(sum);
    for (const category of live) {
      scores[category] = CATEGORY_WEIGHT * Math.log(Math.max(MIN_POSTERIOR, Math.exp(scores[category]! - logTotal)));
    }
    return scores;
  }
}
