// How text becomes search terms (functions/search/search-terms.ts), as data: each row is a text
// and the terms indexing or querying must make of it.
import { describe, expect, it } from "vitest";
import { planQuery } from "../../../functions/search/query-plan.js";
import { nameTerms, terms } from "../../../functions/search/search-terms.js";
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

/** The query's own terms (no synonyms, no typo corrections: nothing is known). */
const planned = (query: string) => planQuery(query, new SynonymTable([]), () => new Set()).terms;

describe("search terms", () => {
  it.each(INDEXED)("indexes %j as %j", (text, expected) => {
    expect(terms(text)).toEqual(expected);
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
