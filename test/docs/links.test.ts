import { existsSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT, documentationPages, headingAnchors, pageLinks, readPage } from "./support/markdown-pages.js";

// Every relative link in README.md and docs/ names a file that exists and, with a #fragment, a heading on that page.
describe("documentation links", () => {
  it.each(documentationPages())("%s links only to pages and headings that exist", (page) => {
    const broken: string[] = [];
    for (const href of pageLinks(page)) {
      if (/^[a-z]+:/i.test(href)) continue;
      const [path = "", anchor] = href.split("#");
      const target = path === "" ? page : normalize(join(dirname(page), path));
      if (!existsSync(join(REPO_ROOT, target))) broken.push(`${href} (no file ${target})`);
      else if (anchor !== undefined && target.endsWith(".md") && !headingAnchors(target).has(anchor))
        broken.push(`${href} (no heading #${anchor} in ${target})`);
    }
    expect(broken).toEqual([]);
  });

  it("README stays a pitch under 12 KB", () => {
    expect(Buffer.byteLength(readPage("README.md"))).toBeLessThan(12 * 1024);
  });
});
