import { createRequire } from "node:module";
import { Language, Parser, type Tree } from "web-tree-sitter";

/**
 * tree-sitter-bash compiled to WASM, loaded once per process: the first caller pays the load
 * (tens of milliseconds), later callers share the same promise and parser.
 */
let parserPromise: Promise<Parser> | undefined;

export function loadBashParser(): Promise<Parser> {
  parserPromise ??= createParser();
  return parserPromise;
}

async function createParser(): Promise<Parser> {
  const require = createRequire(import.meta.url);
  await Parser.init();
  const language = await Language.load(require.resolve("tree-sitter-bash/tree-sitter-bash.wasm"));
  const parser = new Parser();
  parser.setLanguage(language);
  return parser;
}

/** Parses `source`; callers must `delete()` the tree when done, WASM memory is not garbage-collected. */
export async function parseBash(source: string): Promise<Tree> {
  const parser = await loadBashParser();
  const tree = parser.parse(source);
  if (!tree) throw new Error("tree-sitter returned no tree");
  return tree;
}
