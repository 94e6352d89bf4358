import { stemmer } from "stemmer";

/**
 * How text becomes search terms, shared by indexing and querying so both sides agree:
 * split on anything that is not a letter, digit, mark or pictograph (so quotes, regex
 * metacharacters, dots, dashes and underscores are plain separators), split words at case and
 * digit boundaries (`textStats`, `XMLParser`, `base64`: identifiers and schema property names),
 * lower-case, strip accents, drop English stop words, then stem (Porter), so "counting",
 * "counts" and "count" meet.
 */
const SEPARATORS = /[^\p{L}\p{N}\p{M}\p{Extended_Pictographic}]+/u;
/** `textStats` → text|Stats, `XMLParser` → XML|Parser, `pdf2text` → pdf|2|text. */
const WORD_PART_BOUNDARY = /(?<=\p{Ll})(?=\p{Lu})|(?<=\p{Lu})(?=\p{Lu}\p{Ll})|(?<=\p{L})(?=\p{N})|(?<=\p{N})(?=\p{L})/u;
/** The same two rules for ASCII text, which most text is (faster than the Unicode classes). */
const ASCII_SEPARATORS = /[^A-Za-z0-9]+/;
const ASCII_WORD_PART_BOUNDARY = /(?<=[a-z])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])|(?<=[A-Za-z])(?=[0-9])|(?<=[0-9])(?=[A-Za-z])/;
const COMBINING_MARKS = /\p{M}+/gu;
const ASCII = /^[\x00-\x7f]*$/;
const LATIN = /^[a-z]+$/;

const STOP_WORDS = new Set(
  (
    "a about all also an and any are as at be but by can could do does for from has have how i if in " +
    "into is it its just me many more most much my no not of on only or our please should so some such " +
    "than that the their them then there these this those to very via was we what when where which " +
    "while who why will with would you your" +
    " myself ours ourselves yours yourself yourselves he him his himself she her hers herself itself they theirs " +
    "themselves whom am were been being had having did doing ought cannot because until against between through during " +
    "before after above below up down out off over under again further once here both each few other nor own same too"
  ).split(" "),
);

/**
 * Words that say a request is a request ("I need an API that…", "help us find a tool to…"),
 * not what it is for: dropped from queries only, since a tool's own text may use them meaningfully.
 */
const REQUEST_WORDS = new Set(
  (
    "able api apis app application build building develop developing function help helps hi hello i'm identify im kindly " +
    "let lets like looking need needs program project provide someone something suggest tool tools us use used using want wants way we're"
  ).split(" "),
);

/** Whether a word of a query only says that it is a request ("I need an API…"), not what it is for. */
export function isRequestWord(word: string): boolean {
  return REQUEST_WORDS.has(word.toLowerCase());
}

/** Words of a text; a word made of parts (`textStats`) yields itself and its parts. */
export function tokenize(text: string): string[] {
  const words: string[] = [];
  const ascii = ASCII.test(text);
  for (const word of text.split(ascii ? ASCII_SEPARATORS : SEPARATORS)) {
    if (word === "") continue;
    // Most words are plain lower-case: only others can have parts.
    const parts = LATIN.test(word) ? [word] : word.split(ascii ? ASCII_WORD_PART_BOUNDARY : WORD_PART_BOUNDARY);
    if (parts.length > 1) words.push(word, ...parts);
    else words.push(word);
  }
  return words;
}

/**
 * A word's two indexed forms: stemmed (Porter: "passing", "passes" → pass), how prose is matched,
 * and light (plurals only: "passes" → pass, "passing" stays), how names and ids are matched, so a
 * tool named `list-passes` is not the answer to "improve their passing" (search-document.ts).
 */
export interface TermForms {
  stemmed: string;
  light: string;
}

/** Forms of recent words: text repeats words, and stemming each again is most of indexing's cost. */
const normalised = new Map<string, TermForms | null>();
const MAX_MEMOISED_WORDS = 100_000;

/** The indexed forms of one word, or null to drop it (stop words, nothing left after normalising). */
export function termForms(word: string): TermForms | null {
  let forms = normalised.get(word);
  if (forms === undefined) {
    if (normalised.size >= MAX_MEMOISED_WORDS) normalised.clear();
    forms = formsUncached(word);
    normalised.set(word, forms);
  }
  return forms;
}

/** The stemmed form of one word, or null to drop it. */
export function normaliseTerm(word: string): string | null {
  return termForms(word)?.stemmed ?? null;
}

function formsUncached(word: string): TermForms | null {
  const term = (ASCII.test(word) ? word : word.normalize("NFKD").replace(COMBINING_MARKS, "")).toLowerCase();
  if (term === "" || STOP_WORDS.has(term)) return null;
  if (!(LATIN.test(term) && term.length > 3)) return { stemmed: term, light: term };
  return { stemmed: stemmer(term), light: lightStem(term) };
}

/**
 * Plurals folded, nothing else (Porter's first step, plus "y" → "i" so city and cities meet):
 * classes → class, cities → citi, passes → pass; "us" and "is" endings (status, analysis) kept.
 */
function lightStem(term: string): string {
  let stem = term;
  if (stem.endsWith("sses")) stem = stem.slice(0, -2);
  else if (stem.endsWith("ies")) stem = `${stem.slice(0, -3)}i`;
  else if (stem.endsWith("s") && !/(?:ss|us|is)$/.test(stem)) stem = stem.slice(0, -1);
  return /[aeiou].*y$/.test(stem) ? `${stem.slice(0, -1)}i` : stem;
}

/** Every indexed term of a text in its stemmed form, in order, repeats kept (term counts matter). */
export function terms(text: string): string[] {
  return formsOf(text).map((forms) => forms.stemmed);
}

/** Every indexed term of a name or id in its light form, in order, repeats kept. */
export function nameTerms(text: string): string[] {
  return formsOf(text).map((forms) => forms.light);
}

/** Every indexed word of a text with both its forms, in order, repeats kept. */
export function formsOf(text: string): TermForms[] {
  const found: TermForms[] = [];
  for (const word of tokenize(text)) {
    const forms = termForms(word);
    if (forms !== null) found.push(forms);
  }
  return found;
}
