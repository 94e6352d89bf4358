/**
 * A small awk lexer, enough to judge what a program does from its tokens rather than its raw text:
 * strings with escapes, regular expression literals where the grammar allows them (not after an
 * operand, where `/` divides), comments, and the operators that matter (`|`, `|&`, `>`, `>>`, `<`).
 * Covers POSIX awk and the gawk/mawk extensions (`@include`, `|&`, special files).
 */

export type AwkTokenKind = "string" | "regex" | "number" | "name" | "operator" | "newline" | "directive";

export interface AwkToken {
  kind: AwkTokenKind;
  /** The token's text; for strings and regular expressions, the content without delimiters or escapes resolved. */
  text: string;
  /** A `)` that closes an `if`, `while` or `for` condition. */
  closesCondition?: true;
}

/** Keywords after which `/` starts a regular expression (`print /x/`), unlike names, which are operands. */
const REGEX_AFTER_KEYWORD = new Set(["print", "printf", "return", "case", "exit", "do", "else"]);
/** `if (x) /re/`: the `)` that closes these keywords' condition starts a statement, where `/` is a regular expression. */
const CONTROL_KEYWORDS = new Set(["if", "while", "for"]);

const OPERATORS = [
  "|&",
  "||",
  "&&",
  "==",
  "!=",
  "<=",
  ">=",
  ">>",
  "!~",
  "++",
  "--",
  "+=",
  "-=",
  "*=",
  "/=",
  "%=",
  "^=",
  "**=",
  "**",
  "|",
  "<",
  ">",
  "~",
  "!",
  "+",
  "-",
  "*",
  "%",
  "^",
  "=",
  "?",
  ":",
  ",",
  ";",
  "(",
  ")",
  "{",
  "}",
  "[",
  "]",
  "$",
].sort((a, b) => b.length - a.length);

export class AwkSyntaxError extends Error {}

/** Whether `/` after this token divides (the token ends an operand) rather than starting a regular expression. */
function endsOperand(token: AwkToken | undefined): boolean {
  if (!token) return false;
  if (token.kind === "name") return !REGEX_AFTER_KEYWORD.has(token.text);
  if (token.kind === "number" || token.kind === "string" || token.kind === "regex") return true;
  if (token.closesCondition) return false;
  return (
    token.kind === "operator" &&
    (token.text === ")" || token.text === "]" || token.text === "$" || token.text === "++" || token.text === "--")
  );
}

/** Reads a `"…"` string or `/…/` regular expression starting at `start` (the delimiter); returns its content and end. */
function readDelimited(source: string, start: number, delimiter: string): { text: string; end: number } {
  let text = "";
  let inBracket = false;
  for (let index = start + 1; index < source.length; index += 1) {
    const char = source[index]!;
    if (char === "\\") {
      text += source.slice(index, index + 2);
      index += 1;
      continue;
    }
    if (char === "\n") break;
    // gawk lets a bracket expression hold an unescaped slash: /[/]/.
    if (delimiter === "/" && char === "[" && !inBracket) inBracket = true;
    else if (delimiter === "/" && char === "]" && inBracket && text.at(-1) !== "[") inBracket = false;
    else if (char === delimiter && !inBracket) return { text, end: index + 1 };
    text += char;
  }
  throw new AwkSyntaxError(`an unterminated ${delimiter === '"' ? "string" : "regular expression"}`);
}

export function tokenizeAwk(source: string): AwkToken[] {
  const tokens: AwkToken[] = [];
  // For each open parenthesis: whether it opens a control keyword's condition.
  const conditions: boolean[] = [];
  let index = 0;
  while (index < source.length) {
    const char = source[index]!;
    if (char === "\\" && source[index + 1] === "\n") {
      index += 2;
      continue;
    }
    if (char === " " || char === "\t" || char === "\r") {
      index += 1;
      continue;
    }
    if (char === "\n") {
      tokens.push({ kind: "newline", text: "\n" });
      index += 1;
      continue;
    }
    if (char === "#") {
      while (index < source.length && source[index] !== "\n") index += 1;
      continue;
    }
    if (char === '"' || (char === "/" && !endsOperand(tokens.at(-1)))) {
      const { text, end } = readDelimited(source, index, char);
      tokens.push({ kind: char === '"' ? "string" : "regex", text });
      index = end;
      continue;
    }
    const rest = source.slice(index);
    const match =
      /^@[A-Za-z_][A-Za-z0-9_]*/.exec(rest) ??
      /^[A-Za-z_][A-Za-z0-9_]*(?:::[A-Za-z_][A-Za-z0-9_]*)?/.exec(rest) ??
      /^(?:0[xX][0-9a-fA-F]+|(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?)/.exec(rest);
    if (match) {
      const text = match[0];
      tokens.push({ kind: text.startsWith("@") ? "directive" : /^[A-Za-z_]/.test(text) ? "name" : "number", text });
      index += text.length;
      continue;
    }
    const operator = OPERATORS.find((candidate) => rest.startsWith(candidate)) ?? char;
    const previous = tokens.at(-1);
    if (operator === "(") conditions.push(previous?.kind === "name" && CONTROL_KEYWORDS.has(previous.text));
    const closesCondition = operator === ")" && conditions.pop() === true;
    tokens.push(closesCondition ? { kind: "operator", text: operator, closesCondition } : { kind: "operator", text: operator });
    index += operator.length;
  }
  return tokens;
}

/** Output that goes where awk's own output goes: gawk opens these names as the standard streams. */
const STANDARD_STREAMS = new Set(["/dev/stdout", "/dev/stderr", "/dev/fd/1", "/dev/fd/2", "-"]);

/** Names that reach outside the input files: commands, the environment, process state, the list of files read. */
const REACHING_NAMES = new Map([
  ["system", "calls system(), which runs a command"],
  ["ENVIRON", "reads the environment (ENVIRON), which may hold credentials"],
  ["PROCINFO", "reads or sets gawk's process information (PROCINFO)"],
  ["ARGV", "changes which files it reads (ARGV)"],
  ["ARGC", "changes which files it reads (ARGC)"],
  ["SYMTAB", "reaches any variable by name (gawk's SYMTAB, ENVIRON included)"],
  ["FUNCTAB", "calls a function named at run time (gawk's FUNCTAB)"],
]);

const STATEMENT_ENDS = new Set([";", "}", "{"]);
/** A newline after these continues the statement (POSIX awk grammar: `print a,` NEWLINE `b > "f"` is one print). */
const CONTINUES_LINE = new Set([",", "&&", "||", "{", "do", "else"]);

/** `getline`, `getline var`, `getline a[i]` read the next record; followed by `<` in the same expression they read a file. */
function readsFile(tokens: readonly AwkToken[], start: number): boolean {
  let depth = 0;
  for (let index = start; index < tokens.length; index += 1) {
    const token = tokens[index]!;
    if (token.text === "<" && depth === 0) return true;
    if (token.text === "(" || token.text === "[") depth += 1;
    else if (token.text === ")" || token.text === "]") {
      if (depth === 0) return false;
      depth -= 1;
    } else if (depth === 0 && (isStatementEnd(token) || (token.kind === "operator" && token.text !== "$"))) return false;
  }
  return false;
}
const isStatementEnd = (token: AwkToken | undefined) =>
  token === undefined || token.kind === "newline" || (token.kind === "operator" && STATEMENT_ENDS.has(token.text));

/**
 * Why running this awk program does more than read its input and print (undefined: it only does
 * that). Decided from tokens: `>`/`>>` redirect only inside a print or printf statement outside
 * parentheses (elsewhere they compare), to a file other than the standard streams; `|` and `|&`
 * always reach a command; `getline` reads another file only with `<` (plain `getline` and
 * `getline var` read the next input record); `@` starts a gawk directive or an indirect call.
 */
export function awkProgramProblem(source: string): string | undefined {
  let tokens: AwkToken[];
  try {
    tokens = tokenizeAwk(source);
  } catch (error) {
    if (error instanceof AwkSyntaxError) return `the awk program has ${error.message}, which awk would not read as the analysis does`;
    throw error;
  }
  let inPrint = false;
  let depth = 0;
  for (let index = 0; index < tokens.length; index += 1) {
    const token = tokens[index]!;
    if (token.kind === "directive") return `the awk program uses ${token.text} (gawk loads code or calls a function named at run time)`;
    if (token.kind === "name") {
      const reach = REACHING_NAMES.get(token.text);
      if (reach) return `the awk program ${reach}`;
      if (token.text === "getline" && readsFile(tokens, index + 1)) return "the awk program reads another file with getline <";
      if (token.text === "print" || token.text === "printf") {
        inPrint = true;
        depth = 0;
      }
      continue;
    }
    if (token.kind !== "operator") {
      if (token.kind === "newline" && depth === 0 && !CONTINUES_LINE.has(tokens[index - 1]?.text ?? "")) inPrint = false;
      continue;
    }
    if (token.text === "|" || token.text === "|&") return `the awk program pipes to or from a command (${token.text})`;
    if (token.text === "(" || token.text === "[") depth += 1;
    else if (token.text === ")" || token.text === "]") depth = Math.max(0, depth - 1);
    else if (inPrint && depth === 0 && STATEMENT_ENDS.has(token.text)) inPrint = false;
    else if (inPrint && depth === 0 && (token.text === ">" || token.text === ">>")) {
      const target = tokens[index + 1];
      if (target?.kind === "string" && STANDARD_STREAMS.has(target.text) && isStatementEnd(tokens[index + 2])) continue;
      const named = target?.kind === "string" ? JSON.stringify(target.text) : (target?.text ?? "");
      return `the awk program redirects print output to a file (${token.text} ${named})`;
    }
  }
  return undefined;
}
