import { fuzzyVariants } from "./fuzzy-terms.js";
import { queryTermWeight } from "./query-likelihood.js";
import { isRequestWord, termForms, tokenize, type TermForms } from "./search-terms.js";
import type { SynonymTable } from "./synonyms.js";
import type { QueryTerm, WeightedTerm } from "./term-scores.js";

/** Synonyms and typo corrections of a query term count this much of the term itself. */
export const EXPANSION_WEIGHT = 0.5;
/**
 * Synonyms are looked for only in queries of at most this many terms: they find the tool for a
 * short query in other words, but a long request already says what it needs in many words, and
 * its expansions ("create" → generate, "find" → search) mostly add noise.
 */
const MAX_TERMS_FOR_SYNONYMS = 4;

/** What a search looks for: the request's terms with their weights, then their synonyms and typo corrections. */
export interface QueryPlan {
  terms: WeightedTerm[];
}

/**
 * The terms of a request and how much each weighs: its words as search-terms.ts makes them,
 * without the words every request uses, a repeated word weighing more (1 + ln count); plus, at
 * `EXPANSION_WEIGHT`, synonyms in short queries and, for a word no tool uses, the known words one
 * typo away. `known` says which stemmed terms some tool's short fields use.
 */
export function planQuery(text: string, synonyms: SynonymTable, known: (stemmed: readonly string[]) => Set<string>): QueryPlan {
  const words = new Map<string, { forms: TermForms; count: number }>();
  for (const word of tokenize(text)) {
    if (isRequestWord(word)) continue;
    const forms = termForms(word);
    if (forms === null) continue;
    const id = `${forms.stemmed}\0${forms.light}`;
    const seen = words.get(id);
    if (seen === undefined) words.set(id, { forms, count: 1 });
    else seen.count++;
  }
  const terms: WeightedTerm[] = [...words.values()].map(({ forms, count }) => [forms, queryTermWeight(count)] as const);
  const stemmed = [...new Set([...words.values()].map(({ forms }) => forms.stemmed))];
  const expanded = new Map<string, QueryTerm>();
  if (stemmed.length <= MAX_TERMS_FOR_SYNONYMS) {
    for (const forms of synonyms.ofPhrasesIn(text)) expanded.set(forms.stemmed, forms);
    for (const term of stemmed) for (const forms of synonyms.of(term)) expanded.set(forms.stemmed, forms);
  }
  // Two look-ups in all: which query terms some tool uses, then which typo variants of the others.
  const knownTerms = known(stemmed);
  const variants = stemmed.filter((term) => !knownTerms.has(term)).flatMap((term) => fuzzyVariants(term));
  for (const variant of known(variants)) expanded.set(variant, { stemmed: variant });
  for (const term of stemmed) expanded.delete(term);
  return { terms: [...terms, ...[...expanded.values()].map((term) => [term, EXPANSION_WEIGHT] as const)] };
}
