// Ranking rules as data, each a query over a small catalogue and the tool that must come first:
// synonyms and phrases (synonyms.ts), typo variants (fuzzy-terms.ts), identifier splitting and
// request words (search-terms.ts), field weights and the quality tie-break (search-document.ts),
// repeated query words and concise tools (query-likelihood.ts), the tool type a query is about
// (category-model.ts).
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
  // The same words but one: a query that repeats "chart" is about the chart one.
  { tool_id: "chart-sharpener", tool_search_description: "Sharpens blurry charts", tool_type: "graphics" },
  { tool_id: "map-sharpener", tool_search_description: "Sharpens blurry maps", tool_type: "graphics" },
  // Both validate JSON; one does many other things too.
  { tool_id: "json-lint", tool_search_description: "Validates JSON", tool_type: "data" },
  {
    tool_id: "json-kit",
    tool_search_description: "Validates JSON, formats it, minifies it, sorts its keys, converts it to YAML or XML and diffs two documents",
    tool_type: "data",
  },
  // Two tools of the same words but of two types; the audio type's other tools are about recordings.
  { tool_id: "hiss-stripper", tool_search_description: "Strips hiss", tool_type: "documents" },
  { tool_id: "stripper-hiss", tool_search_description: "Strips hiss", tool_type: "audio" },
  { tool_id: "audio-cutter", tool_search_description: "Cuts audio recordings into clips", tool_type: "audio" },
  { tool_id: "audio-leveller", tool_search_description: "Evens the loudness of recordings", tool_type: "audio" },
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
  ["a word the query repeats weighs more", "sharpen a blurry chart, a chart and not a map", "chart-sharpener"],
  ["a word the query repeats weighs more (the other way)", "sharpen a blurry map, a map and not a chart", "map-sharpener"],
  ["of two tools that match alike, the concise one", "validate json", "json-lint"],
  // (Without the category model the two would tie, and the tie-break would pick hiss-stripper.)
  ["the tool of the type the query's words are about", "strip hiss from recordings", "stripper-hiss"],
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

  it("looks for synonyms in short queries only: a long request says what it needs in its own words", () => {
    const ids = (q: string) => index.search({ q, limit: 5 }).map((hit) => hit.tool_id);
    expect(ids("erase everything")).toContain("file-shredder");
    expect(ids("please erase everything in that folder on my old laptop")).not.toContain("file-shredder");
  });

  it("finds nothing for words no tool uses, nor for a query of stop words only", () => {
    expect(index.search({ q: "quantum chromodynamics", limit: 3 })).toEqual([]);
    expect(index.search({ q: "the of and to", limit: 3 })).toEqual([]);
  });
});
