// How text becomes search terms (functions/search/search-terms.ts), as data: each row is a text
// and the terms indexing or querying must make of it.
import { describe, expect, it } from "vitest";
import { queryTermCounts, queryTerms, terms } from "../../../functions/search/search-terms.js";

const INDEXED: [text: string, expected: string[]][] = [
  ["textStats", ["textstat", "text", "stat"]],
  ["XMLParser", ["xmlparser", "xml", "parser"]],
  ["pdf.textExtract_v2", ["pdf", "textextract", "text", "extract", "v2", "v", "2"]],
  ["Counting the wörds", ["count", "word"]],
  ["between two frames, through the night", ["two", "frame", "night"]],
  ["It converts the images themselves", ["convert", "imag"]],
];

const QUERIES: [query: string, expected: string[]][] = [
  // The words every request uses say nothing about the tool wanted.
  ["I need an API that can classify product images.", ["classifi", "product", "imag"]],
  ["Please suggest a tool to help us convert units", ["convert", "unit"]],
  ["We want to build an app for our users", ["user"]],
  // A query term is listed once, however often it is repeated (`queryTermCounts` counts them).
  ["resize images, resize photos", ["resiz", "imag", "photo"]],
];

const COUNTS: [query: string, expected: [term: string, count: number][]][] = [
  [
    "resize images, resize photos",
    [
      ["resiz", 2],
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
      ["text", 2],
      ["stat", 1],
    ],
  ],
];

describe("search terms", () => {
  it.each(INDEXED)("indexes %j as %j", (text, expected) => {
    expect(terms(text)).toEqual(expected);
  });

  it.each(QUERIES)("queries %j as %j", (query, expected) => {
    expect(queryTerms(query)).toEqual(expected);
  });

  it.each(COUNTS)("counts the terms of %j as %j", (query, expected) => {
    expect([...queryTermCounts(query)]).toEqual(expected);
  });
});
