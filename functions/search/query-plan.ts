import { fuzzyVariants } from "./fuzzy-terms.js";
import { queryTermWeight } from "./query-likelihood.js";
import { requestParts } from "./request-parts.js";
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

/**
 * A value's words (quoted text, ids, numbers: request-parts.ts) weigh this much of a word about
 * what the tool should do: "cities" in an address to look up says little about the tool.
 */
export const VALUE_WEIGHT = 0.25;

/**
 * What a search looks for: the request's terms with their weights, then their synonyms and typo
 * corrections; and, when the request has several asks, each ask's own terms.
 */
export interface QueryPlan {
  terms: WeightedTerm[];
  clauses: WeightedTerm[][];
}

/**
 * The terms of a request and how much each weighs: its words as search-terms.ts makes them,
 * without the words every request uses, a repeated word weighing more (1 + ln count); plus, at
 * `EXPANSION_WEIGHT`, synonyms in short queries and, for a word no tool uses, the known words one
 * typo away. `known` says which stemmed terms some tool's short fields use.
 */
export function planQuery(text: string, synonyms: SynonymTable, known: (stemmed: readonly string[]) => Set<string>): QueryPlan {
  const clauses = new Map<number, Words>();
  const all: Words = new Map();
  for (const part of requestParts(text)) {
    for (const word of tokenize(part.text)) {
      if (word === "" || isRequestWord(word)) continue;
      const forms = termForms(word);
      if (forms === null) continue;
      const weight = part.value ? VALUE_WEIGHT : 1;
      count(all, forms, weight);
      if (!clauses.has(part.clause)) clauses.set(part.clause, new Map());
      count(clauses.get(part.clause)!, forms, weight);
    }
  }
  const terms = weighted(all);
  const stemmed = [...new Set([...all.values()].map(({ forms }) => forms.stemmed))];
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
  const asks = [...clauses.values()].filter((words) => words.size > 0).map(weighted);
  return {
    terms: [...terms, ...[...expanded.values()].map((term) => [term, EXPANSION_WEIGHT] as const)],
    clauses: asks.length > 1 ? asks : [],
  };
}

/** A request's words: each term's forms, how often it occurs, and the largest weight of an occurrence. */
type Words = Map<string, { forms: TermForms; count: number; weight: number }>;

function count(words: Words, forms: TermForms, weight: number): void {
  const id = `${forms.stemmed}\0${forms.light}`;
  const seen = words.get(id);
  if (seen === undefined) words.set(id, { forms, count: 1, weight });
  else {
    seen.count++;
    seen.weight = Math.max(seen.weight, weight);
  }
}

function weighted(words: Words): WeightedTerm[] {
  return [...words.values()].map(({ forms, count, weight }) => [forms, weight * queryTermWeight(count)] as const);
}
