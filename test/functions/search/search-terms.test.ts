// How text becomes search terms (functions/search/search-terms.ts), as data: each row is a text
// and the terms indexing or querying must make of it.
import { describe, expect, it } from "vitest";
import { planQuery } from "../../../functions/search/query-plan.js";
import { nameTerms, terms, tokenize } from "../../../functions/search/search-terms.js";
import { SynonymTable } from "../../../functions/search/synonyms.js";

const INDEXED: [text: string, expected: string[]][] = [
  ["textStats", ["textstat", "text", "stat"]],
  ["XMLParser", ["xmlparser", "xml", "parser"]],
  ["pdf.textExtract_v2", ["pdf", "textextract", "text", "extract", "v2", "v", "2"]],
  ["Counting the wörds", ["count", "word"]],
  ["between two frames, through the night", ["two", "frame", "night"]],
  ["It converts the images themselves", ["convert", "imag"]],
];

// Names and ids keep their words but for plurals: "passes" is a pass, "passing" is not.
const NAMED: [text: string, expected: string[]][] = [
  ["list-passes", ["list", "pass"]],
  ["improve their passing", ["improve", "passing"]],
  ["cities city classes status analysis", ["citi", "citi", "class", "status", "analysis"]],
  ["textExtractors", ["textextractor", "text", "extractor"]],
];

const QUERIES: [query: string, expected: string[]][] = [
  // The words every request uses say nothing about the tool wanted.
  ["I need an API that can classify product images.", ["classifi", "product", "imag"]],
  ["Please suggest a tool to help us convert units", ["convert", "unit"]],
  ["We want to build an app for our users", ["user"]],
  // A query term is listed once, however often it is repeated (`queryTermCounts` counts them).
  ["resize images, resize photos", ["resiz", "imag", "photo"]],
];

// A repeated word weighs 1 + ln(count).
const WEIGHTS: [query: string, expected: [term: string, weight: number][]][] = [
  [
    "resize images, resize photos",
    [
      ["resiz", 1 + Math.log(2)],
      ["imag", 1],
      ["photo", 1],
    ],
  ],
  // Request words are not counted; a word made of parts counts for itself and each part.
  [
    "I need an API: the API splits textStats text",
    [
      ["split", 1],
      ["textstat", 1],
      ["text", 1 + Math.log(2)],
      ["stat", 1],
    ],
  ],
];

// ASCII text is split by a scan of its own (the common case, fast); it must cut exactly where the
// Unicode rules do. Identifiers, schema names and punctuation of every kind, and random strings.
const ASCII_TEXTS = [
  "pdf.textExtract_v2 XMLParser getHTTPResponseCode ABc aB A1b2C3 mp3 base64 word2vec IPv6Address",
  "  --leading and trailing--  ",
  "GET /person/{person_id}/movie_credits?api_key=K&page=2",
  "getHealthWorkforce(location='country'); x_Y-Z9 ZZTop 99Luftballons iOS17 ABCDefGHi",
  ...randomAsciiTexts(200),
];

/** Strings of letters of both cases, digits and separators, from a fixed seed. */
function randomAsciiTexts(count: number): string[] {
  const alphabet = "aAbBzZmM0159 _-./'\"\t\n(){}";
  let seed = 29;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  return Array.from({ length: count }, () =>
    Array.from({ length: 1 + Math.floor(next() * 40) }, () => alphabet[Math.floor(next() * alphabet.length)]).join(""),
  );
}

/** The query's own terms (no synonyms, no typo corrections: nothing is known). */
const planned = (query: string) => planQuery(query, new SynonymTable([]), () => new Set()).terms;

describe("search terms", () => {
  it.each(INDEXED)("indexes %j as %j", (text, expected) => {
    expect(terms(text)).toEqual(expected);
  });

  it.each(ASCII_TEXTS)("splits the ASCII text %j as the Unicode rules do", (text) => {
    // A non-ASCII word sends the text through the Unicode rules, and adds only itself.
    expect(tokenize(text)).toEqual(tokenize(`${text} é`).slice(0, -1));
    expect(tokenize(`${text} é`).at(-1)).toBe("é");
  });

  it.each(NAMED)("indexes the name %j as %j", (text, expected) => {
    expect(nameTerms(text)).toEqual(expected);
  });

  it.each(QUERIES)("queries %j as %j", (query, expected) => {
    expect(planned(query).map(([term]) => term.stemmed)).toEqual(expected);
  });

  it.each(WEIGHTS)("weighs the terms of %j as %j", (query, expected) => {
    expect(planned(query).map(([term, weight]) => [term.stemmed, weight])).toEqual(expected);
  });
});
