// The no-snapshot build (ToolSearchIndex.builder, docs/search.md "Without a snapshot"): a cold
// instance indexes each page of the table as it arrives, so however the same documents are cut
// into pages, the index must be the same file, byte for byte, as one build of them all.
import { describe, expect, it } from "vitest";
import { ToolSearchIndex } from "../../../functions/search/tool-search-index.js";
import { scaledCatalog } from "./relevance-catalog.js";

const TOOLS = [
  ...scaledCatalog(2500).map((tool) => ({ ...tool, version: "1.0.0" })),
  // Text the ASCII scan does not take: accents, ligatures, pictographs, full-width letters.
  {
    tool_id: "wörter-zählen",
    version: "1.0.0",
    tool_search_description: "Zählt Wörter und Sätze 🚀 in ﬁles, ＦＵＬＬ width textStats",
    tool_tags: ["ünïcode"],
    tool_type: "text-processing",
    tool_man_page_doc: "Straße, café, naïve XMLParser pdf2text",
  },
];

function builtInPages(pageSize: number): Uint8Array {
  const builder = ToolSearchIndex.builder();
  for (let start = 0; start < TOOLS.length; start += pageSize) builder.add(TOOLS.slice(start, start + pageSize));
  const index = builder.finish(7);
  try {
    return index.serialize();
  } finally {
    index.close();
  }
}

describe("the no-snapshot build", () => {
  const whole = (() => {
    const index = ToolSearchIndex.build(TOOLS, 7);
    try {
      return index.serialize();
    } finally {
      index.close();
    }
  })();

  it.each([1, 97, 1000])("writes the same bytes when the documents come in pages of %i", (pageSize) => {
    expect(Buffer.from(builtInPages(pageSize)).equals(Buffer.from(whole))).toBe(true);
  });
});
