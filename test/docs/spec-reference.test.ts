import { describe, expect, it } from "vitest";
import { readPage } from "./support/markdown-pages.js";
import { renderSpecReference } from "./support/spec-reference.js";

describe("docs/authoring.md's spec.json reference", () => {
  it("is the one generated from the schema the registry validates with (regenerate: npx tsx test/docs/write-spec-reference.ts)", () => {
    const reference = renderSpecReference();
    expect(reference).toContain("| `tool_metadata.version` | string |");
    expect(readPage("docs/authoring.md")).toContain(reference);
  });
});
