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
  if (ASCII.test(text)) {
    asciiWords(text, words);
    return words;
  }
  for (const word of text.split(SEPARATORS)) {
    if (word === "") continue;
    // Most words are plain lower-case: only others can have parts.
    const parts = LATIN.test(word) ? [word] : word.split(WORD_PART_BOUNDARY);
    if (parts.length > 1) words.push(word, ...parts);
    else words.push(word);
  }
  return words;
}

const LOWER = 1;
const UPPER = 2;
const DIGIT = 3;

/** Character classes of ASCII codes: 0 for a separator. */
const ASCII_CLASS = new Uint8Array(128);
for (let code = 0; code < 128; code++) {
  const char = String.fromCharCode(code);
  ASCII_CLASS[code] = /[a-z]/.test(char) ? LOWER : /[A-Z]/.test(char) ? UPPER : /[0-9]/.test(char) ? DIGIT : 0;
}

/**
 * `tokenize` of an ASCII text in one scan: the same words and parts as `SEPARATORS` and
 * `WORD_PART_BOUNDARY` give (tested against them), without a regular expression per word, since
 * tokenising is the largest part of building an index.
 */
function asciiWords(text: string, words: string[]): void {
  const end = text.length;
  let at = 0;
  while (at < end) {
    while (at < end && ASCII_CLASS[text.charCodeAt(at)] === 0) at++;
    if (at === end) return;
    const start = at;
    let lowerOnly = true;
    for (let kind = ASCII_CLASS[text.charCodeAt(at)]!; kind !== 0; kind = at < end ? ASCII_CLASS[text.charCodeAt(at)]! : 0) {
      if (kind !== LOWER) lowerOnly = false;
      at++;
    }
    words.push(text.slice(start, at));
    if (lowerOnly) continue;
    let partStart = start;
    for (let i = start + 1; i < at; i++) {
      if (isPartBoundary(ASCII_CLASS[text.charCodeAt(i - 1)]!, ASCII_CLASS[text.charCodeAt(i)]!, ASCII_CLASS[text.charCodeAt(i + 1)])) {
        words.push(text.slice(partStart, i));
        partStart = i;
      }
    }
    if (partStart !== start) words.push(text.slice(partStart, at));
  }
}

/** Whether `WORD_PART_BOUNDARY` falls between classes `before` and `after` (`next` follows `after`). */
function isPartBoundary(before: number, after: number, next: number | undefined): boolean {
  if (after === DIGIT) return before !== DIGIT;
  if (before === DIGIT) return true;
  return after === UPPER && (before === LOWER || next === LOWER);
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
