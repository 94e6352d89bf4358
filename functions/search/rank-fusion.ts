/**
 * Reciprocal-rank fusion (Cormack, Clarke and Büttcher, SIGIR 2009): each list adds
 * 1 / (k + rank) to the items it ranks, so an item near the top of either list rises, without
 * comparing the lists' scores (BM25 and cosine similarity are on unrelated scales). k = 60 is the
 * paper's constant: it keeps one list's first place from outweighing agreement of both.
 */
export const RRF_K = 60;

/** Items of all `lists` (each best first), best fused first; ties keep the first list's order. */
export function reciprocalRankFusion<T>(lists: readonly (readonly T[])[], k = RRF_K): { item: T; score: number }[] {
  const scores = new Map<T, { score: number; first: number }>();
  let seen = 0;
  for (const list of lists) {
    list.forEach((item, index) => {
      const entry = scores.get(item) ?? { score: 0, first: seen++ };
      entry.score += 1 / (k + index + 1);
      scores.set(item, entry);
    });
  }
  return [...scores].sort(([, a], [, b]) => b.score - a.score || a.first - b.first).map(([item, { score }]) => ({ item, score }));
}
