/** The URL policy for tool.md, rule by rule, and the markdown rendering that applies it. */
import { describe, expect, it } from "vitest";
import { renderMarkdown } from "../../../functions/web/render-markdown.js";
import { isAllowedImageUrl, isAllowedLinkUrl } from "../../../functions/web/url-policy.js";

const LINKS: [url: string, allowed: boolean][] = [
  ["https://example.org/guide", true],
  ["http://example.org/", true],
  ["mailto:team@example.org", true],
  ["#usage", true],
  ["docs/usage.md", true],
  ["/t/other-tool", true],
  ["//example.org/protocol-relative", true],
  ["javascript:alert(1)", false],
  ["JaVaScRiPt:alert(1)", false],
  ["  javascript:alert(1)", false],
  ["\u0001javascript:alert(1)", false],
  ["java\tscript:alert(1)", false],
  ["java\nscript:alert(1)", false],
  ["vbscript:msgbox", false],
  ["data:text/html,<script>alert(1)</script>", false],
  ["file:///etc/passwd", false],
  ["blob:https://example.org/x", false],
];

const IMAGES: [url: string, allowed: boolean][] = [
  ["https://images.example/pixel.png", true],
  ["HTTPS://images.example/pixel.png", true],
  ["http://images.example/pixel.png", false],
  ["/pixel.png", false],
  ["pixel.png", false],
  ["//images.example/pixel.png", false],
  ["https:pixel.png", false],
  ["data:image/png;base64,AAAA", false],
  ["data:image/svg+xml;base64,PHN2Zz4=", false],
  ["javascript:alert(1)", false],
];

describe("URL policy", () => {
  it.each(LINKS)("link %j allowed: %s", (url, allowed) => {
    expect(isAllowedLinkUrl(url)).toBe(allowed);
  });

  it.each(IMAGES)("image %j allowed: %s", (url, allowed) => {
    expect(isAllowedImageUrl(url)).toBe(allowed);
  });
});

describe("renderMarkdown", () => {
  it("shows raw HTML as text, never as elements", async () => {
    const html = await renderMarkdown('<script>alert(1)</script>\n\n<img src=x onerror="alert(1)"> and <b>bold</b>');
    expect(html).not.toMatch(/<script|<img|<b>/);
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(html).toContain("&lt;b&gt;bold&lt;/b&gt;");
  });

  it("keeps refused links and images as their text", async () => {
    expect(await renderMarkdown("[click](javascript:alert(1))")).toBe("<p>[click](javascript:alert(1))</p>\n");
    expect(await renderMarkdown("![tracker](http://images.example/t.png)")).toBe("<p>tracker</p>\n");
    expect(await renderMarkdown("[ref][r]\n\n[r]: javascript:alert(1)")).not.toContain("<a");
  });

  it("marks external links and images so they leak nothing", async () => {
    expect(await renderMarkdown("[guide](https://example.org/guide)")).toBe(
      '<p><a href="https://example.org/guide" rel="nofollow ugc noopener noreferrer">guide</a></p>\n',
    );
    expect(await renderMarkdown("[usage](#usage)")).toBe('<p><a href="#usage">usage</a></p>\n');
    expect(await renderMarkdown('![a "pixel"](https://images.example/p.png)')).toBe(
      '<p><img src="https://images.example/p.png" alt="a &quot;pixel&quot;" loading="lazy" referrerpolicy="no-referrer"></p>\n',
    );
  });

  it("puts tool.md's headings under the page's and renders tables and code", async () => {
    const html = await renderMarkdown("# Title\n\n##### Deep\n\n| a |\n|---|\n| 1 |\n\n```\ncode\n```");
    expect(html).toContain("<h3>Title</h3>");
    expect(html).toContain("<h6>Deep</h6>");
    expect(html).toContain("<td>1</td>");
    expect(html).toContain("<pre><code>code\n</code></pre>");
  });
});
