/**
 * How text becomes search terms, shared by indexing and querying so both sides agree:
 * split on anything that is not a letter, digit, mark or pictograph (so quotes, regex
 * metacharacters and punctuation are plain separators), lower-case, strip accents, drop
 * English stop words, then strip a few common suffixes ("counting" and "counts" meet "count").
 */
const SEPARATORS = /[^\p{L}\p{N}\p{M}\p{Extended_Pictographic}]+/u;
const CAMEL_BOUNDARY = /(?<=\p{Ll})(?=\p{Lu})/u;
const COMBINING_MARKS = /\p{M}+/gu;
const ASCII = /^[\x00-\x7f]*$/;

const STOP_WORDS = new Set(
  (
    "a about all also an and any are as at be but by can could do does for from has have how i if in " +
    "into is it its just me many more most much my no not of on only or our please should so some such " +
    "than that the their them then there these this those to very via was we what when where which " +
    "while who why will with would you your"
  ).split(" "),
);

/** Words of a text; `splitCamelCase` also yields the parts of `textStats`, `text` and `Stats` (used for ids). */
export function tokenize(text: string, splitCamelCase = false): string[] {
  const words = text.split(SEPARATORS).filter((word) => word !== "");
  if (!splitCamelCase) return words;
  return words.flatMap((word) => {
    const parts = word.split(CAMEL_BOUNDARY);
    return parts.length > 1 ? [word, ...parts] : parts;
  });
}

/** The indexed form of one word, or null to drop it (stop words, nothing left after normalising). */
export function normaliseTerm(word: string): string | null {
  const term = (ASCII.test(word) ? word : word.normalize("NFKD").replace(COMBINING_MARKS, "")).toLowerCase();
  if (term === "" || STOP_WORDS.has(term)) return null;
  return stem(term);
}

/** The distinct indexed terms of a text, in first-seen order. */
export function distinctTerms(text: string): string[] {
  const terms = new Set<string>();
  for (const word of tokenize(text)) {
    const term = normaliseTerm(word);
    if (term !== null) terms.add(term);
  }
  return [...terms];
}

/** A deliberately light English stemmer: only suffixes whose removal leaves at least three letters. */
function stem(term: string): string {
  if (term.endsWith("ss")) return term; // "class", "boss": not plurals
  for (const [suffix, replacement] of SUFFIXES) {
    if (term.endsWith(suffix) && term.length - suffix.length >= 3) return term.slice(0, -suffix.length) + replacement;
  }
  return term;
}

const SUFFIXES: ReadonlyArray<readonly [string, string]> = [
  ["ies", "y"],
  ["ing", ""],
  ["ed", ""],
  ["s", ""],
];
