import { ToolSearchIndex } from "../functions/search/tool-search-index.js";
const idx = ToolSearchIndex.build([
 { tool_id: "text-stats", tool_search_description: "Counts words in a text and returns the most frequent ones", tool_tags: ["text","nlp","statistics"], tool_type: "text-processing" , tool_man_page_doc: "# text-stats\n\nCounts words. Input: text."},
 { tool_id: "word_cloud", tool_search_description: "Draws a word cloud picture from a document", tool_tags: ["text", "visualisation"], tool_type: "media" },
 { tool_id: "summarizer", tool_search_description: "Summarizes long documents into a few sentences", tool_tags: ["text", "llm"], tool_type: "text-processing" },
]);
console.log(idx.search({ q: process.argv[2] ?? "how many words are in this text?", limit: 5 }));
