import type { Node } from "web-tree-sitter";
import { parseBash } from "./bash-parser.js";
import { expandBraceWord } from "./brace-expansion.js";
import { DynamicWordError, isLiteralArithmetic, readWord, type ShellWord } from "./shell-word.js";

export interface Assignment {
  name: string;
  /** Undefined when the value is dynamic. */
  value: string | undefined;
  text: string;
}

export type RedirectKind = "write" | "read" | "duplicate" | "heredoc";

export interface Redirect {
  operator: string;
  kind: RedirectKind;
  /** The file (for write/read), absent for heredocs and descriptor duplication. */
  target: ShellWord | undefined;
  text: string;
}

/**
 * Where a command's standard input comes from, for programs that read it as program text or names
 * (`sh <<< 'rm x'`, `git cat-file --batch`): a here-string or here-doc (its text, undefined when
 * it expands at run time), a file redirect, or an earlier pipeline stage. Absent: the tool's own
 * stdin, which carries nothing.
 */
export type StdinSource = { kind: "text"; text: string | undefined } | { kind: "file"; target: ShellWord | undefined } | { kind: "pipe" };

/** One simple command as written: prefix assignments, then the command name and its arguments. */
export interface SimpleCommand {
  text: string;
  assignments: Assignment[];
  words: ShellWord[];
  stdin?: StdinSource | undefined;
}

/** A compound construct (if, for, while, case, function, `{ }`, `( )`, `[[ ]]`). */
export interface Construct {
  type: string;
  /** For functions: the name, to spot self-recursion (fork bombs). */
  name?: string | undefined;
  commands: SimpleCommand[];
}

/**
 * The syntactic facts about one command string: every simple command (including those nested in
 * lists, pipelines, subshells, compound statements and substitutions), every redirection, every
 * assignment statement, and the reasons the string cannot be analysed statically.
 */
export interface ShellScript {
  source: string;
  commands: SimpleCommand[];
  redirects: Redirect[];
  /** Bare assignments and declarations (`X=1;`, `export X=1`, `unset X`, `declare`, `local`). */
  statements: Assignment[];
  /** Each pipeline's direct commands, in order (to spot `curl … | sh`). */
  pipelines: SimpleCommand[][];
  constructs: Construct[];
  /** Code that runs while words are expanded, or words that cannot be known: bypass-immune ASK. */
  dynamic: string[];
  /** Syntax errors and grammar the analysis does not understand: bypass-immune ASK. */
  unsupported: string[];
  /** Names of the variables the script expands (`$GITHUB_TOKEN` may print a credential). */
  variables: string[];
  /** The items of `for`/`select` loops: names the loop body may read (`for f in ~/.ssh/*`). */
  loopItems: ShellWord[];
  /** The variables `for` loops assign (`for PATH in .` sets PATH). */
  loopVariables: string[];
}

/**
 * Constructs whose run time effect cannot be read statically. Command substitutions are not among
 * them: the commands inside are analysed like any other, and the substitution's value is unknown.
 */
const DYNAMIC_NODES = new Map([
  ["process_substitution", "process substitution"],
  ["c_style_for_statement", "arithmetic for loop"],
]);

/** Every node type the walker knows; anything else (new grammar, ERROR) makes the command unanalysable. */
const KNOWN_NODES = new Set([
  "program",
  "list",
  "pipeline",
  "command",
  "command_name",
  "redirected_statement",
  "subshell",
  "compound_statement",
  "negated_command",
  "variable_assignment",
  "variable_assignments",
  "declaration_command",
  "unset_command",
  "function_definition",
  "if_statement",
  "elif_clause",
  "else_clause",
  "while_statement",
  "for_statement",
  "case_statement",
  "case_item",
  "do_group",
  "test_command",
  "comment",
  "file_redirect",
  "heredoc_redirect",
  "herestring_redirect",
  "heredoc_body",
  "heredoc_content",
  "heredoc_start",
  "heredoc_end",
  "file_descriptor",
  "word",
  "number",
  "string",
  "string_content",
  "raw_string",
  "ansi_c_string",
  "translated_string",
  "concatenation",
  "simple_expansion",
  "expansion",
  "variable_name",
  "special_variable_name",
  "brace_expression",
  "test_operator",
  "unary_expression",
  "binary_expression",
  "parenthesized_expression",
  "regex",
  "extglob_pattern",
  "array",
  "subscript",
  "command_substitution",
  "process_substitution",
  "arithmetic_expansion",
  "c_style_for_statement",
  "postfix_expression",
  "ternary_expression",
]);

const CASE_TERMINATORS = new Set([";;", ";&", ";;&"]);

const COMPOUND_CONSTRUCTS = new Map([
  ["if_statement", "if"],
  ["while_statement", "while"],
  ["for_statement", "for"],
  ["case_statement", "case"],
  ["function_definition", "function"],
  ["subshell", "subshell"],
  ["compound_statement", "group"],
  ["test_command", "test"],
]);

export async function parseShellScript(source: string): Promise<ShellScript> {
  const tree = await parseBash(source);
  try {
    const script: ShellScript = {
      source,
      commands: [],
      redirects: [],
      statements: [],
      pipelines: [],
      constructs: [],
      dynamic: [],
      unsupported: [],
      variables: [],
      loopItems: [],
      loopVariables: [],
    };
    if (tree.rootNode.hasError)
      script.unsupported.push("a syntax error (the shell would not run it as written, or the parser disagrees with bash)");
    new ScriptWalker(script).visit(tree.rootNode);
    return script;
  } finally {
    tree.delete();
  }
}

class ScriptWalker {
  private readonly constructStack: Construct[] = [];
  /** The stdin the enclosing redirected statements and pipeline stages give the commands inside them. */
  private readonly stdinStack: (StdinSource | undefined)[] = [];

  constructor(private readonly script: ShellScript) {}

  /** Commands inside substitutions are collected too: the analysis asks, but deny rules still see them. */
  visit(node: Node): void {
    const type = node.type;
    if (!KNOWN_NODES.has(type) || node.isMissing) {
      this.script.unsupported.push(
        `${type === "ERROR" ? "unparsable text" : `the construct '${type}'`} near ${JSON.stringify(node.text.slice(0, 40))}`,
      );
      return;
    }
    if (type === "ansi_c_string") {
      try {
        readWord(node);
      } catch (error) {
        if (!(error instanceof DynamicWordError)) throw error;
        this.script.unsupported.push(error.construct);
      }
    }
    if (type === "command_substitution" && substitutionProblem(node)) this.script.dynamic.push(substitutionProblem(node)!);
    const dynamic = DYNAMIC_NODES.get(type);
    if (dynamic) this.script.dynamic.push(dynamic);
    // `$((1+2))` only computes; `$((x))` evaluates the text of x, which may hold `a[$(id)]`.
    if (type === "arithmetic_expansion" && !isLiteralArithmetic(node.text)) this.script.dynamic.push("arithmetic expansion of a variable");
    if (type === "expansion" && !/^\$\{[A-Za-z_][A-Za-z0-9_]*\}$/.test(node.text))
      this.script.dynamic.push(`parameter expansion ${node.text}`);
    if (type === "compound_statement" && node.text.startsWith("((")) this.script.dynamic.push("arithmetic command");
    if (
      type === "heredoc_body" &&
      (node.namedChildren.some((child) => child?.type === "simple_expansion" || child?.type === "expansion") || /[`$]/.test(node.text))
    ) {
      // tree-sitter keeps backticks in a heredoc as text; bash runs them when the delimiter is unquoted.
      if (!isQuotedHeredoc(node.parent)) this.script.dynamic.push("a heredoc with expansions");
    }
    if (type === "heredoc_redirect") {
      const mismatch = heredocMismatch(node);
      if (mismatch) this.script.unsupported.push(mismatch);
    }
    if (type === "unary_expression" || type === "binary_expression") {
      const problem = arithmeticTestProblem(node, [
        ...this.script.loopVariables,
        ...this.script.statements.map((statement) => statement.name),
      ]);
      if (problem) this.script.dynamic.push(problem);
    }
    if (type === "variable_name" && (node.parent?.type === "simple_expansion" || node.parent?.type === "expansion"))
      this.script.variables.push(node.text);
    if (type !== "case_item" && node.children.some((child) => child && !child.isNamed && CASE_TERMINATORS.has(child.type))) {
      this.script.unsupported.push("';;' outside a case statement (bash rejects it)");
    }

    switch (type) {
      case "command":
        this.addCommand(node);
        break;
      case "file_redirect":
      case "heredoc_redirect":
      case "herestring_redirect":
        this.addRedirect(node);
        break;
      case "variable_assignment":
        if (node.parent?.type !== "command") this.script.statements.push(readAssignment(node));
        break;
      case "declaration_command":
      case "unset_command":
        this.script.statements.push({ name: node.child(0)?.text ?? type, value: undefined, text: node.text });
        break;
      case "pipeline":
        this.addPipeline(node);
        return;
      case "redirected_statement":
        this.addRedirectedStatement(node);
        return;
      case "for_statement": {
        for (const item of node.childrenForFieldName("value")) this.script.loopItems.push(...readWords(item));
        const variable = node.childForFieldName("variable")?.text;
        if (variable) this.script.loopVariables.push(variable);
        break;
      }
    }
    const construct = COMPOUND_CONSTRUCTS.get(type);
    if (construct)
      this.constructStack.push({
        type: construct,
        name: type === "function_definition" ? node.childForFieldName("name")?.text : undefined,
        commands: [],
      });
    for (const child of node.children) if (child?.isNamed) this.visit(child);
    if (construct) this.script.constructs.push(this.constructStack.pop()!);
  }

  /** tree-sitter puts `cat <<'EOF' | sh` as a pipeline inside the heredoc redirect: its first stage reads the pipe too. */
  private addPipeline(node: Node): void {
    const stages: SimpleCommand[] = [];
    const afterHeredoc = node.parent?.type === "heredoc_redirect";
    node.namedChildren.forEach((child, index) => {
      if (!child) return;
      const start = this.script.commands.length;
      const piped = index > 0 || afterHeredoc;
      if (piped) this.stdinStack.push({ kind: "pipe" });
      this.visit(child);
      if (piped) this.stdinStack.pop();
      const first = this.script.commands[start];
      if (first) stages.push(first);
    });
    this.script.pipelines.push(stages);
  }

  /** `{ …; } < f`, `sh <<'EOF'`: the body reads the redirect's stdin; the redirects themselves are visited as usual. */
  private addRedirectedStatement(node: Node): void {
    const body = node.childForFieldName("body");
    const redirects = node.namedChildren.filter((child): child is Node => child !== null && child.id !== body?.id);
    const stdin = stdinOf(redirects);
    if (body) {
      if (stdin) this.stdinStack.push(stdin);
      this.visit(body);
      if (stdin) this.stdinStack.pop();
    }
    for (const child of redirects) this.visit(child);
  }

  private addCommand(node: Node): void {
    const own = stdinOf(node.namedChildren.filter((child): child is Node => child?.type.endsWith("_redirect") === true));
    const command: SimpleCommand = { text: node.text, assignments: [], words: [], stdin: own ?? this.stdinStack.at(-1) };
    for (const child of node.namedChildren) {
      if (!child) continue;
      if (child.type === "variable_assignment") command.assignments.push(readAssignment(child));
      else if (child.type === "command_name") {
        const name = child.namedChild(0);
        const word = name ? safeReadWord(name) : undefined;
        if (!word || word.value === undefined || word.expands)
          this.script.dynamic.push(`a command name that is only known at run time (${child.text})`);
        command.words.push(word ?? { text: child.text, value: undefined, expands: false });
      } else if (!child.type.endsWith("_redirect")) {
        command.words.push(...readWords(child));
      }
    }
    this.script.commands.push(command);
    for (const construct of this.constructStack) construct.commands.push(command);
  }

  private addRedirect(node: Node): void {
    const operator = node.children.find((child) => child && !child.isNamed)?.text ?? "";
    const destination =
      node.childForFieldName("destination") ?? node.namedChildren.find((child) => child && child.type !== "file_descriptor") ?? null;
    const target = destination ? safeReadWord(destination) : undefined;
    this.script.redirects.push({ operator, kind: redirectKind(node.type, operator, target), target, text: node.text });
  }
}

/** The stdin the last redirect of descriptor 0 among `redirects` gives (bash applies them in order), if any. */
function stdinOf(redirects: readonly Node[]): StdinSource | undefined {
  let stdin: StdinSource | undefined;
  for (const redirect of redirects) {
    const descriptor = redirect.namedChildren.find((child) => child?.type === "file_descriptor")?.text;
    if (descriptor !== undefined && descriptor !== "0") continue;
    const operator = redirect.children.find((child) => child && !child.isNamed)?.text ?? "";
    if (redirect.type === "herestring_redirect") {
      const word = redirect.namedChildren.find((child) => child && child.type !== "file_descriptor");
      const value = word ? safeReadWord(word)?.value : undefined;
      stdin = { kind: "text", text: value === undefined ? undefined : `${value}\n` };
    } else if (redirect.type === "heredoc_redirect") {
      const body = redirect.namedChildren.find((child) => child?.type === "heredoc_body");
      const expands = !isQuotedHeredoc(redirect) && /[`$\\]/.test(body?.text ?? "");
      stdin = { kind: "text", text: expands ? undefined : (body?.text ?? "") };
    } else if (operator === "<" || operator === "<>" || operator === "<&") {
      const destination = redirect.childForFieldName("destination");
      const target = destination ? safeReadWord(destination) : undefined;
      stdin = operator === "<" && target?.value === "/dev/null" ? { kind: "text", text: "" } : { kind: "file", target };
    }
  }
  return stdin;
}

function redirectKind(nodeType: string, operator: string, target: ShellWord | undefined): RedirectKind {
  if (nodeType !== "file_redirect") return "heredoc";
  if (operator.startsWith(">&") || operator.startsWith("<&")) {
    // `2>&1` and `>&-` duplicate or close descriptors; `>&file` (a word, not a number) writes a file.
    if (!target) return "duplicate";
    if (target.value !== undefined && /^(\d+-?|-)$/.test(target.value)) return "duplicate";
    return operator.startsWith("<") && target.value !== undefined ? "read" : "write";
  }
  if (operator === "<") return "read";
  return target?.value !== undefined && HARMLESS_DEVICES.test(target.value) ? "duplicate" : "write";
}

/** A heredoc whose delimiter has quotes or backslashes: its body is literal text. */
function isQuotedHeredoc(redirect: Node | null): boolean {
  const start = redirect?.namedChildren.find((child) => child?.type === "heredoc_start");
  return start !== undefined && start !== null && /['"\\]/.test(start.text);
}

/**
 * Bash ends a heredoc at the first line equal to the delimiter after quote removal (and, for
 * `<<-`, leading tabs). If tree-sitter ends it elsewhere (`<<E"O"F` … `EOF`), the lines it calls
 * body would run: the command is not analysable.
 */
function heredocMismatch(redirect: Node): string | undefined {
  const start = redirect.namedChildren.find((child) => child?.type === "heredoc_start");
  const body = redirect.namedChildren.find((child) => child?.type === "heredoc_body");
  const end = redirect.namedChildren.find((child) => child?.type === "heredoc_end");
  if (!start) return undefined;
  // Bash joins a backslash-newline before it reads the delimiter word; the parser does not.
  if (start.text.includes("\\\n")) return `a heredoc delimiter split by a backslash-newline (${JSON.stringify(start.text)})`;
  const stripTabs = redirect.children.some((child) => child && !child.isNamed && child.text === "<<-");
  const delimiter = start.text.replace(/\\(.)|['"]/gs, "$1");
  const line = (text: string) => (stripTabs ? text.replace(/^\t+/, "") : text);
  const early = (body?.text ?? "")
    .split("\n")
    .slice(0, -1)
    .some((text) => line(text) === delimiter);
  if (early || (end && line(end.text) !== delimiter))
    return `a heredoc whose end bash and the parser see differently (${JSON.stringify(start.text)})`;
  return undefined;
}

/**
 * Inside `[[ ]]` arithmetic comparisons evaluate their operands (`a[$(id)]` runs the substitution);
 * `-v` evaluates an array subscript in `[ ]` too. Only integers and plain names pass.
 */
const ARITHMETIC_TEST_OPERATORS = new Set(["-eq", "-ne", "-lt", "-le", "-gt", "-ge"]);

function enclosingTest(node: Node): Node | undefined {
  for (let parent = node.parent; parent; parent = parent.parent) {
    if (parent.type === "test_command") return parent;
    if (parent.type !== "unary_expression" && parent.type !== "binary_expression" && parent.type !== "parenthesized_expression")
      return undefined;
  }
  return undefined;
}

/** `assigned`: names the script itself sets (`for x in 'a[$(id)]'`), whose text is then attacker-chosen. */
function arithmeticTestProblem(node: Node, assigned: readonly string[]): string | undefined {
  const test = enclosingTest(node);
  if (!test) return undefined;
  const operator = node.children.find((child) => child?.type === "test_operator")?.text;
  const evaluates = operator === "-v" || (test.text.startsWith("[[") && operator !== undefined && ARITHMETIC_TEST_OPERATORS.has(operator));
  if (!evaluates) return undefined;
  const operands = node.namedChildren.filter((child) => child && child.type !== "test_operator" && !/_expression$/.test(child.type));
  const plain = operands.every(
    (child) => child !== null && /^(-?[0-9]+|[A-Za-z_][A-Za-z0-9_]*)$/.test(child.text) && !assigned.includes(child.text),
  );
  return plain ? undefined : `an arithmetic test operand (${node.text.slice(0, 40)}) that bash evaluates`;
}

/** Writing to these opens no file: `>/dev/null`, `2>/dev/stderr`. */
const HARMLESS_DEVICES = /^\/dev\/(null|stdout|stderr|tty|fd\/[0-2])$/;

function readAssignment(node: Node): Assignment {
  const name = node.childForFieldName("name")?.text ?? node.text.split("=")[0] ?? "";
  const valueNode = node.childForFieldName("value");
  const value = valueNode ? safeReadWord(valueNode)?.value : "";
  return { name: name.replace(/\[.*$/, ""), value, text: node.text };
}

/**
 * Backticks have quoting rules of their own, and heredocs or `case` inside `$( )` are where parsers
 * and bash disagree: those substitutions are not analysed.
 */
function substitutionProblem(node: Node): string | undefined {
  if (node.text.startsWith("`")) return "a backtick command substitution";
  if (/<<|\bcase\b/.test(node.text)) return "a command substitution holding a heredoc or case statement";
  return undefined;
}

/** A word node as the words bash makes of it: brace expansion first (`-{-output=x,-stat}` is two words). */
function readWords(node: Node): ShellWord[] {
  if (node.text.includes("{")) {
    const expanded = expandBraceWord(node.text);
    if (expanded) return expanded;
  }
  return [safeReadWord(node) ?? { text: node.text, value: undefined, expands: false }];
}

/** Dynamic parts are reported by the walker itself; here they only make the value unknown. */
function safeReadWord(node: Node): ShellWord | undefined {
  try {
    return readWord(node);
  } catch (error) {
    if (error instanceof DynamicWordError) return { text: node.text, value: undefined, expands: false };
    throw error;
  }
}
