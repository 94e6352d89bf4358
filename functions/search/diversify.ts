/**
 * The order of results that covers a request (docs/search.md, "Ranking that covers a request"):
 * explicit query-aspect diversification (xQuAD: Santos, Macdonald and Ounis, "Exploiting query
 * reformulations for web search result diversification", 2010) over the request's asks, and
 * near-duplicates shown once. Greedily, each next result is the candidate that maximises
 *
 *   (1 − λ)·r(d) + λ·Σᵢ pᵢ·rᵢ(d)·Πₛ (1 − rᵢ(s))
 *
 * where r is the relevance to the whole request and rᵢ to its i-th ask (each the likelihood ratio
 * per unit of query weight relative to the best candidate's: 1 for the best, in (0, 1]), pᵢ the
 * ask's share of the request's weight, and s the results chosen before: an ask that a chosen tool
 * already answers weighs less, so the next slot goes to an ask not yet answered. The first result
 * is the best match for the whole request (a request of one ask in several sentences keeps its
 * best tool first); with a single ask this is the relevance order. A candidate whose description uses the same words as a chosen
 * one (a clone, or the same model under another name) is not given a slot of its own: it is named
 * in the chosen one's `similar` list.
 *
 * The candidates are a fixed pool (the best of the whole request and of each ask), so the order
 * does not depend on how many results are asked for: every page of one request ranks alike.
 */

/** How much the asks weigh against the whole request: enough that a second ask's best tool reaches the top few. */
export const ASPECT_WEIGHT = 0.7;
/** Objectives this close (relatively) are ties, broken by quality, then tool id. */
const TIE_TOLERANCE = 1e-9;

export interface Aspect {
  /** Its share of the request (the aspects' shares sum to 1). */
  share: number;
  /** Relevance of its candidates, in (0, 1]. */
  relevance: ReadonlyMap<number, number>;
}

export interface RowTraits {
  quality(rowid: number): number;
  /** 0 when the row has no duplicates to speak of. */
  duplicateGroup(rowid: number): number;
  /** Tool ids, for the rare ties of objective and quality. */
  toolIds(rowids: readonly number[]): Map<number, string>;
}

export interface Diversified {
  rowid: number;
  /** Near-duplicates of it among the candidates, best first. */
  similar: number[];
}

/** The first `depth` results for `relevance` (the whole request's) and its `aspects`. */
export function diversify(
  relevance: ReadonlyMap<number, number>,
  aspects: readonly Aspect[],
  traits: RowTraits,
  depth: number,
): Diversified[] {
  const lambda = aspects.length === 0 ? 0 : ASPECT_WEIGHT;
  const pool = new Set([...relevance.keys(), ...aspects.flatMap((aspect) => [...aspect.relevance.keys()])]);
  const bound = (rowid: number) =>
    (1 - lambda) * (relevance.get(rowid) ?? 0) +
    lambda * aspects.reduce((sum, aspect) => sum + aspect.share * (aspect.relevance.get(rowid) ?? 0), 0);
  // Candidates by the most they can score; coverage only lowers it, so a scan stops at the first
  // bound below the best objective found.
  const order = [...pool].map((rowid) => ({ rowid, bound: bound(rowid) })).sort((a, b) => b.bound - a.bound || a.rowid - b.rowid);
  const byRelevance = [...relevance].map(([rowid, bound]) => ({ rowid, bound })).sort((a, b) => b.bound - a.bound || a.rowid - b.rowid);
  const coverage = aspects.map(() => 1);
  const taken = new Set<number>();
  const byGroup = new Map<number, number[]>();
  for (const { rowid } of order) {
    const group = traits.duplicateGroup(rowid);
    if (group === 0) continue;
    const members = byGroup.get(group);
    if (members === undefined) byGroup.set(group, [rowid]);
    else members.push(rowid);
  }
  const ids = new Map<number, string>();
  const better = (a: { rowid: number; objective: number }, b: { rowid: number; objective: number }): boolean => {
    if (Math.abs(a.objective - b.objective) > TIE_TOLERANCE * Math.max(a.objective, b.objective)) return a.objective > b.objective;
    const quality = traits.quality(a.rowid) - traits.quality(b.rowid);
    if (quality !== 0) return quality > 0;
    for (const [rowid, id] of traits.toolIds([a.rowid, b.rowid].filter((rowid) => !ids.has(rowid)))) ids.set(rowid, id);
    return ids.get(a.rowid)! < ids.get(b.rowid)!;
  };
  const results: Diversified[] = [];
  while (results.length < depth) {
    let best: { rowid: number; objective: number } | undefined;
    // The first result is the best match for the whole request; the asks decide the next ones.
    const mix = results.length === 0 ? 0 : lambda;
    for (const { rowid, bound } of mix === 0 ? byRelevance : order) {
      if (taken.has(rowid)) continue;
      if (best !== undefined && bound < best.objective * (1 - 2 * TIE_TOLERANCE)) break;
      const objective =
        (1 - mix) * (relevance.get(rowid) ?? 0) +
        mix * aspects.reduce((sum, aspect, i) => sum + aspect.share * (aspect.relevance.get(rowid) ?? 0) * coverage[i]!, 0);
      const candidate = { rowid, objective };
      if (best === undefined || better(candidate, best)) best = candidate;
    }
    if (best === undefined) break;
    const duplicates = (byGroup.get(traits.duplicateGroup(best.rowid)) ?? []).filter((rowid) => rowid !== best.rowid && !taken.has(rowid));
    for (const rowid of [best.rowid, ...duplicates]) taken.add(rowid);
    for (const [i, aspect] of aspects.entries()) coverage[i]! *= 1 - (aspect.relevance.get(best.rowid) ?? 0);
    results.push({ rowid: best.rowid, similar: duplicates });
  }
  return results;
}
