/** Only terms this long get typo corrections: a short word one edit away is usually another word. */
export const MIN_FUZZY_TERM_LENGTH = 5;

const LETTERS = "abcdefghijklmnopqrstuvwxyz";
const LATIN = /^[a-z]+$/;

/**
 * Every Latin term one edit away from `term` (a deletion, an insertion, a substitution, or two
 * neighbours swapped: Damerau-Levenshtein distance 1), for looking up which of them the index
 * knows. Looking candidates up costs a few hundred point reads; scanning the vocabulary would
 * cost one read per known term.
 */
export function fuzzyVariants(term: string): string[] {
  if (term.length < MIN_FUZZY_TERM_LENGTH || !LATIN.test(term)) return [];
  const variants = new Set<string>();
  for (let at = 0; at <= term.length; at++) {
    const head = term.slice(0, at);
    const tail = term.slice(at);
    if (tail !== "") variants.add(head + tail.slice(1));
    if (tail.length > 1) variants.add(head + tail[1] + tail[0] + tail.slice(2));
    for (const letter of LETTERS) {
      variants.add(head + letter + tail);
      if (tail !== "") variants.add(head + letter + tail.slice(1));
    }
  }
  variants.delete(term);
  return [...variants];
}
