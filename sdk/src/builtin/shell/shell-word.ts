import type { Node } from "web-tree-sitter";

/**
 * One shell word as the analysis sees it. `value` is what bash would pass after quote removal, or
 * undefined when it depends on a variable. `expands` marks unquoted globs and brace expansions,
 * which can turn into any number of words (a file named `-delete` matched by `*` becomes a flag).
 */
export interface ShellWord {
  text: string;
  value: string | undefined;
  expands: boolean;
  /**
   * When `value` is undefined: a glob every possible value matches (each variable becomes `*`),
   * so `$HOME/.ssh/id_rsa` is still recognised as a key file.
   */
  pattern?: string | undefined;
  /** When the whole word is one command substitution (`$(pwd)`, `"$(git rev-parse --show-toplevel)"`): the command inside. */
  substitution?: string | undefined;
}

/** Constructs that run code or evaluate expressions while a word is expanded: never auto-allowed. */
export class DynamicWordError extends Error {
  constructor(readonly construct: string) {
    super(construct);
  }
}

const GLOB_CHARACTERS = /[*?[]/;
/** `{a,b}` and `{1..3}` expand; `{}` and `{x}` stay as written. */
const BRACE_EXPANSION = /\{[^{}]*(,|\.\.)[^{}]*\}/;

/** Reads a word-like node; throws DynamicWordError for substitutions and other code-running expansions. */
export function readWord(node: Node): ShellWord {
  const parts = wordParts(node);
  return {
    text: node.text,
    value: parts.dynamic ? undefined : parts.value,
    expands: parts.expands,
    pattern: parts.dynamic ? parts.pattern : undefined,
    substitution: soleSubstitution(node),
  };
}

/** The command of a word that is exactly one command substitution, quoted or not. */
function soleSubstitution(node: Node): string | undefined {
  const inner = node.type === "string" && node.namedChildren.length === 1 ? node.namedChildren[0] : node;
  if (inner?.type !== "command_substitution") return undefined;
  const match = /^\$\(([\s\S]*)\)$/.exec(inner.text);
  return match ? match[1]!.trim() : undefined;
}

/** `$((1 + 2))`: digits and operators only, so evaluating it runs nothing. */
export function isLiteralArithmetic(text: string): boolean {
  return /^\$\(\([\s0-9+\-*/%()<>=!&|^~?:,]*\)\)$/.test(text);
}

interface WordParts {
  value: string;
  dynamic: boolean;
  expands: boolean;
  /** The value with each variable replaced by `*`. */
  pattern: string;
}

function wordParts(node: Node): WordParts {
  switch (node.type) {
    case "word":
      // `~+` and `~-` are $PWD and $OLDPWD: values only known at run time.
      if (/^~[+-](\/|$)/.test(node.text)) return { value: "", dynamic: true, expands: false, pattern: `*${node.text.slice(2)}` };
      return unquotedWord(node.text);
    case "number":
    case "string_content":
    case "heredoc_content":
      return literal(node.text);
    case "raw_string":
      return literal(node.text.slice(1, -1));
    case "ansi_c_string":
      return literal(decodeAnsiC(node.text.slice(2, -1)));
    case "string":
    case "translated_string":
      return doubleQuoted(node);
    case "concatenation": {
      // tree-sitter splits `{x,.env}` into `{`, `x,.env`, `}`: the braces are judged on the whole text.
      const parts = join(node.namedChildren.filter(isPresent).map(wordParts));
      return BRACE_EXPANSION.test(node.text) ? { ...parts, expands: true } : parts;
    }
    case "simple_expansion":
      return VARIABLE;
    case "expansion":
      if (isPlainBracedVariable(node)) return VARIABLE;
      throw new DynamicWordError(`parameter expansion ${node.text}`);
    case "brace_expression":
      return { value: node.text, dynamic: false, expands: true, pattern: node.text };
    case "command_substitution":
      // The commands inside are analysed as commands of their own; the value is unknown.
      return VARIABLE;
    case "process_substitution":
      throw new DynamicWordError("process substitution");
    case "arithmetic_expansion":
      if (isLiteralArithmetic(node.text)) return VARIABLE;
      throw new DynamicWordError("arithmetic expansion");
    default:
      throw new DynamicWordError(`${node.type} ${node.text}`);
  }
}

const VARIABLE: WordParts = { value: "", dynamic: true, expands: false, pattern: "*" };

function literal(value: string): WordParts {
  return { value, dynamic: false, expands: false, pattern: value };
}

function join(parts: WordParts[]): WordParts {
  return {
    value: parts.map((part) => part.value).join(""),
    dynamic: parts.some((part) => part.dynamic),
    expands: parts.some((part) => part.expands),
    pattern: parts.map((part) => part.pattern).join(""),
  };
}

/** Backslash escapes removed; an unquoted `{a,b}` or `{1..3}` is a brace expansion. */
function unquotedWord(text: string): WordParts {
  let value = "";
  let expands = false;
  for (let index = 0; index < text.length; index += 1) {
    const character = text[index]!;
    if (character === "\\") {
      index += 1;
      if (text[index] !== "\n") value += text[index] ?? "";
      continue;
    }
    if (GLOB_CHARACTERS.test(character)) expands = true;
    value += character;
  }
  if (BRACE_EXPANSION.test(value)) expands = true;
  return { value, dynamic: false, expands, pattern: value };
}

function doubleQuoted(node: Node): WordParts {
  const parts: WordParts[] = [];
  for (const child of node.namedChildren) {
    if (!child) continue;
    if (child.type === "string_content") parts.push(literal(child.text.replace(/\\([$`"\\\n])/g, (_, c: string) => (c === "\n" ? "" : c))));
    else parts.push(wordParts(child));
  }
  return { ...join(parts), expands: false };
}

/** `${NAME}` reads a variable; any operator (`${x@P}`, `${x:=y}`, `${!x}`, `${a[$(id)]}`) may run or assign. */
function isPlainBracedVariable(node: Node): boolean {
  return /^\$\{[A-Za-z_][A-Za-z0-9_]*\}$/.test(node.text);
}

const ANSI_C_ESCAPES: Record<string, string> = {
  n: "\n",
  t: "\t",
  r: "\r",
  a: "\x07",
  b: "\b",
  e: "\x1b",
  E: "\x1b",
  f: "\f",
  v: "\v",
  "\\": "\\",
  "'": "'",
  '"': '"',
  "?": "?",
};

/**
 * `$'...'` escapes, so `$'\x72m'` is read as `rm`. Bash keeps only what precedes a NUL
 * (`$'.env\0x'` is `.env`); an escape beyond Unicode cannot be judged.
 */
export function decodeAnsiC(body: string): string {
  const decoded = body.replace(/\\(x[0-9a-fA-F]{1,2}|u[0-9a-fA-F]{1,4}|U[0-9a-fA-F]{1,8}|[0-7]{1,3}|c.|.)/gs, (_, sequence: string) => {
    const kind = sequence[0]!;
    if ((kind === "x" || kind === "u" || kind === "U") && sequence.length === 1) return `\\${sequence}`;
    if (kind === "x" || kind === "u" || kind === "U") {
      const codePoint = Number.parseInt(sequence.slice(1), 16);
      if (codePoint > 0x10ffff) throw new DynamicWordError(`the ANSI-C sequence \\${sequence}, which names no character`);
      return String.fromCodePoint(codePoint);
    }
    if (/[0-7]/.test(kind)) return String.fromCharCode(Number.parseInt(sequence, 8));
    if (kind === "c") return String.fromCharCode(sequence.charCodeAt(1) & 0x1f);
    return ANSI_C_ESCAPES[kind] ?? `\\${sequence}`;
  });
  const nul = decoded.indexOf("\0");
  return nul < 0 ? decoded : decoded.slice(0, nul);
}

function isPresent<T>(value: T | null): value is T {
  return value !== null;
}
