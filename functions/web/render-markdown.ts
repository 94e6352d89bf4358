import type { MarkdownIt } from "markdown-it";
import { isAllowedImageUrl, isAllowedLinkUrl } from "./url-policy.js";

// Loaded by the first page that renders a tool.md, so the fetch function's API requests never pay
// for evaluating it at cold start (the bundle holds it, but evaluates it on this import).
async function loadRenderer(): Promise<MarkdownIt> {
  const { default: markdownIt } = await import("markdown-it");
  const markdown = markdownIt({ html: false, linkify: false, typographer: false });
  markdown.validateLink = isAllowedLinkUrl;

  const renderToken = markdown.renderer.renderToken.bind(markdown.renderer);

  markdown.renderer.rules.link_open = (tokens, index, options) => {
    const token = tokens[index]!;
    if (/^[a-z][a-z0-9+.-]*:|^\/\//i.test(String(token.attrGet("href") ?? ""))) token.attrSet("rel", "nofollow ugc noopener noreferrer");
    return renderToken(tokens, index, options);
  };

  markdown.renderer.rules.image = (tokens, index, options, env, renderer) => {
    const token = tokens[index]!;
    const alt = renderer.renderInlineAsText(token.children ?? [], options, env);
    if (!isAllowedImageUrl(String(token.attrGet("src") ?? ""))) return markdown.utils.escapeHtml(alt);
    token.attrSet("alt", alt);
    token.attrSet("loading", "lazy");
    token.attrSet("referrerpolicy", "no-referrer");
    return renderToken(tokens, index, options);
  };

  markdown.core.ruler.push("shift_headings", (state) => {
    for (const token of state.tokens) {
      if (token.type === "heading_open" || token.type === "heading_close") token.tag = `h${Math.min(Number(token.tag.slice(1)) + 2, 6)}`;
    }
  });
  return markdown;
}

let renderer: Promise<MarkdownIt> | undefined;
const rendered = new WeakMap<object, string>();

/** `entry.tool_man_page_doc` as safe HTML, memoised per entry object (cached entries are never mutated). */
export async function renderManPage(entry: { tool_man_page_doc: string }): Promise<string> {
  let html = rendered.get(entry);
  if (html === undefined) {
    html = await renderMarkdown(entry.tool_man_page_doc);
    rendered.set(entry, html);
  }
  return html;
}

/**
 * `tool.md` as HTML that is safe to put in a page: markdown-it with raw HTML off, so any tag in
 * the source is shown as text, never parsed; links and images filtered by URL_POLICY (a refused one
 * stays as its text); external links marked `nofollow ugc` and opened without a referrer or an
 * opener. Headings move two levels down, under the page's own `<h1>` and its "Documentation" `<h2>`.
 */
export async function renderMarkdown(source: string): Promise<string> {
  renderer ??= loadRenderer();
  return (await renderer).render(source);
}
