// Ranking rules as data, each a query over a small catalogue and the tool that must come first:
// synonyms and phrases (synonyms.ts), typo variants (fuzzy-terms.ts), identifier splitting and
// request words (search-terms.ts), field weights and the quality tie-break (search-document.ts).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SearchableEntry } from "../../../functions/search/search-document.js";
import { ToolSearchIndex } from "../../../functions/search/tool-search-index.js";

const CATALOGUE: SearchableEntry[] = [
  { tool_id: "file-shredder", tool_search_description: "Deletes files beyond recovery", tool_tags: ["files"], tool_type: "devops" },
  { tool_id: "text-stats", tool_search_description: "Counts the words of a text", tool_tags: ["text"], tool_type: "text-processing" },
  {
    tool_id: "summarizer",
    tool_search_description: "Condenses articles into a short abstract",
    tool_tags: ["text"],
    tool_type: "text-processing",
  },
  {
    tool_id: "pdfTextExtract",
    tool_search_description: "Pulls the text layer out of documents",
    tool_tags: ["pdf"],
    tool_type: "documents",
  },
  { tool_id: "XMLParser", tool_search_description: "Reads markup into a tree", tool_tags: ["data"], tool_type: "data" },
  {
    tool_id: "translator",
    tool_search_description: "Translates text between languages",
    tool_tags: ["language"],
    tool_type: "text-processing",
  },
  {
    tool_id: "photo-resizer",
    tool_search_description: "Changes the width and height of pictures",
    tool_tags: ["media"],
    tool_type: "media",
  },
  // Uses every word a request does: those words must not find it.
  { tool_id: "helpdesk", tool_search_description: "A tool to help users who need an API", tool_tags: ["support"], tool_type: "web" },
  // Scored alike for "weather forecast" (same terms, same length); the one whose description is a
  // sentence ranks first, though its id sorts last.
  { tool_id: "zz-weather", tool_search_description: "Weather forecast for a city", tool_type: "geo" },
  { tool_id: "aa-weather", tool_search_description: "Weather forecast", tool_tags: ["city"], tool_type: "geo" },
];

const FIRST: [rule: string, query: string, expected: string][] = [
  // Each query matches its tool only through the rule named.
  ["a synonym finds the word the tool uses", "erase everything", "file-shredder"],
  ["a phrase of stop words expands to its meaning", "how many are there", "text-stats"],
  ["a typo finds the term one edit away", "sumarize", "summarizer"],
  ["a camelCase id is split into its words", "extract", "pdfTextExtract"],
  ["an acronym is split from the word after it", "xml parser", "XMLParser"],
  ["request words are left out of the query", "I need an API tool that can help us translate", "translator"],
  ["image words are synonyms", "enlarge an image", "photo-resizer"],
  ["equal scores go to the better described tool", "weather forecast", "zz-weather"],
];

let index: ToolSearchIndex;
beforeAll(() => {
  index = ToolSearchIndex.build(CATALOGUE);
});
afterAll(() => {
  index?.close();
});

describe("ranking rules", () => {
  it.each(FIRST)("%s: %j → %s", (_rule, query, expected) => {
    expect(index.search({ q: query, limit: 3 })[0]?.tool_id).toBe(expected);
  });

  it("finds nothing for words no tool uses, nor for a query of stop words only", () => {
    expect(index.search({ q: "quantum chromodynamics", limit: 3 })).toEqual([]);
    expect(index.search({ q: "the of and to", limit: 3 })).toEqual([]);
  });
});
