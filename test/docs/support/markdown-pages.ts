import { readFileSync, readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import GithubSlugger from "github-slugger";
import { Lexer, type Token, type Tokens } from "marked";

/** The repository root, where README.md and docs/ live. */
export const REPO_ROOT = fileURLToPath(new URL("../../../", import.meta.url));

/** README.md and every page under docs/, as paths relative to the repository root. */
export function documentationPages(): string[] {
  const docs = readdirSync(`${REPO_ROOT}docs`, { recursive: true, encoding: "utf8" })
    .filter((name) => name.endsWith(".md"))
    .map((name) => `docs/${name}`);
  return ["README.md", ...docs.sort()];
}

export function readPage(page: string): string {
  return readFileSync(`${REPO_ROOT}${page}`, "utf8");
}

/** Every token of a page, nested ones included (links live inside paragraphs, tables, lists). */
function allTokens(tokens: Token[]): Token[] {
  const found: Token[] = [];
  const visit = (token: Token) => {
    found.push(token);
    const nested = token as Token & { tokens?: Token[]; items?: Token[]; header?: { tokens: Token[] }[]; rows?: { tokens: Token[] }[][] };
    for (const child of nested.tokens ?? []) visit(child);
    for (const child of nested.items ?? []) visit(child);
    for (const cell of nested.header ?? []) for (const child of cell.tokens) visit(child);
    for (const row of nested.rows ?? []) for (const cell of row) for (const child of cell.tokens) visit(child);
  };
  tokens.forEach(visit);
  return found;
}

export function pageTokens(page: string): Token[] {
  return allTokens(Lexer.lex(readPage(page)));
}

/** The anchors GitHub gives the page's headings. */
export function headingAnchors(page: string): Set<string> {
  const slugger = new GithubSlugger();
  return new Set(
    pageTokens(page)
      .filter((t): t is Tokens.Heading => t.type === "heading")
      .map((t) => slugger.slug(t.text)),
  );
}

export function pageLinks(page: string): string[] {
  return pageTokens(page)
    .filter((t): t is Tokens.Link => t.type === "link")
    .map((t) => t.href);
}

export function codeBlocks(page: string): Tokens.Code[] {
  return Lexer.lex(readPage(page)).filter((t): t is Tokens.Code => t.type === "code");
}
