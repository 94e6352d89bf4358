import { decodeAnsiC, type ShellWord } from "./shell-word.js";

/**
 * Bash brace expansion, done statically: `-{-output=x,-stat}` is the two words `--output=x` and
 * `--stat`, so option checks see what the program will see. Expansion happens on the word as
 * written, before variables, and only on unquoted braces; a part that holds a variable keeps it
 * unknown. Words that cannot be expanded here (substitutions inside, too many results) are
 * returned as one unknown word, which no check treats as safe.
 */

/** More results than this are not enumerated (the word is then unknown). */
const MAX_RESULTS = 256;

interface Unit {
  char: string;
  quoted: boolean;
  /** A variable or other expansion: its value is unknown. */
  dynamic?: boolean;
}

const UNKNOWN = (text: string): ShellWord => ({ text, value: undefined, expands: false, pattern: "*" });

/** The words a brace-expanded word becomes, or undefined when it has no brace expansion. */
export function expandBraceWord(text: string): ShellWord[] | undefined {
  if (/\$\(|`/.test(text)) return /[{}]/.test(text) ? [UNKNOWN(text)] : undefined;
  const units = scan(text);
  if (units === undefined) return [UNKNOWN(text)];
  const results = expand(units);
  if (results === undefined) return undefined;
  if (results.length > MAX_RESULTS) return [UNKNOWN(text)];
  return results.filter((result) => result.length > 0).map((result) => toWord(text, result));
}

function toWord(text: string, units: Unit[]): ShellWord {
  const startsWithDirectoryTilde =
    units[0]?.char === "~" &&
    !units[0].quoted &&
    (units[1]?.char === "+" || units[1]?.char === "-") &&
    !units[1].quoted &&
    (units[2] === undefined || units[2].char === "/");
  const dynamic = startsWithDirectoryTilde || units.some((unit) => unit.dynamic);
  const pattern = (startsWithDirectoryTilde ? [{ char: "*", quoted: false }, ...units.slice(2)] : units)
    .map((unit) => (unit.dynamic ? "*" : unit.char))
    .join("");
  return {
    text,
    value: dynamic ? undefined : units.map((unit) => unit.char).join(""),
    expands: units.some((unit) => !unit.quoted && /[*?[]/.test(unit.char)),
    pattern: dynamic ? pattern : undefined,
  };
}

/** Quote removal into units that remember whether they were quoted; undefined for text it cannot follow. */
function scan(text: string): Unit[] | undefined {
  const units: Unit[] = [];
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index]!;
    if (char === "\\") {
      index += 1;
      if (index < text.length && text[index] !== "\n") units.push({ char: text[index]!, quoted: true });
    } else if (char === "'") {
      const end = text.indexOf("'", index + 1);
      if (end < 0) return undefined;
      for (const quoted of text.slice(index + 1, end)) units.push({ char: quoted, quoted: true });
      index = end;
    } else if (char === "$" && text[index + 1] === "'") {
      const end = ansiEnd(text, index + 2);
      if (end < 0) return undefined;
      for (const quoted of decodeAnsiC(text.slice(index + 2, end))) units.push({ char: quoted, quoted: true });
      index = end;
    } else if (char === '"') {
      const end = doubleQuoted(text, index + 1, units);
      if (end < 0) return undefined;
      index = end;
    } else if (char === "$") {
      const end = variableEnd(text, index);
      if (end === index) units.push({ char, quoted: false });
      else {
        units.push({ char: text.slice(index, end), quoted: true, dynamic: true });
        index = end - 1;
      }
    } else units.push({ char, quoted: false });
  }
  return units;
}

function ansiEnd(text: string, start: number): number {
  for (let index = start; index < text.length; index += 1) {
    if (text[index] === "\\") index += 1;
    else if (text[index] === "'") return index;
  }
  return -1;
}

function doubleQuoted(text: string, start: number, units: Unit[]): number {
  for (let index = start; index < text.length; index += 1) {
    const char = text[index]!;
    if (char === '"') return index;
    if (char === "\\" && /[$`"\\\n]/.test(text[index + 1] ?? "")) {
      index += 1;
      if (text[index] !== "\n") units.push({ char: text[index]!, quoted: true });
    } else if (char === "$" && variableEnd(text, index) > index) {
      const end = variableEnd(text, index);
      units.push({ char: text.slice(index, end), quoted: true, dynamic: true });
      index = end - 1;
    } else units.push({ char, quoted: true });
  }
  return -1;
}

/** The end of `$name`, `${…}`, `$1`, `$@`…; the start itself when `$` begins no expansion. */
function variableEnd(text: string, start: number): number {
  const next = text[start + 1] ?? "";
  if (next === "{") {
    const close = text.indexOf("}", start + 2);
    return close < 0 ? start : close + 1;
  }
  if (/[A-Za-z_]/.test(next)) {
    let end = start + 2;
    while (/[A-Za-z0-9_]/.test(text[end] ?? "")) end += 1;
    return end;
  }
  return /[0-9@*#?$!-]/.test(next) ? start + 2 : start;
}

/** All expansions of the units, or undefined when no unquoted brace expands. */
function expand(units: Unit[]): Unit[][] | undefined {
  for (let open = 0; open < units.length; open += 1) {
    if (!isSpecial(units[open], "{") || (open > 0 && isSpecial(units[open - 1], "$"))) continue;
    const close = matchingBrace(units, open);
    if (close < 0) continue;
    const alternatives = braceAlternatives(units.slice(open + 1, close));
    if (alternatives === undefined) continue;
    const prefix = units.slice(0, open);
    const suffixes = expand(units.slice(close + 1)) ?? [units.slice(close + 1)];
    const results: Unit[][] = [];
    for (const alternative of alternatives) {
      for (const inner of expand(alternative) ?? [alternative]) {
        for (const suffix of suffixes) {
          results.push([...prefix, ...inner, ...suffix]);
          if (results.length > MAX_RESULTS) return results;
        }
      }
    }
    return results;
  }
  return undefined;
}

function isSpecial(unit: Unit | undefined, char: string): boolean {
  return unit !== undefined && !unit.quoted && unit.char === char;
}

function matchingBrace(units: Unit[], open: number): number {
  let depth = 0;
  for (let index = open; index < units.length; index += 1) {
    if (isSpecial(units[index], "{")) depth += 1;
    else if (isSpecial(units[index], "}")) {
      depth -= 1;
      if (depth === 0) return index;
    }
  }
  return -1;
}

/** `a,b,c` at the top level, or a `x..y[..step]` sequence; undefined when the braces stay literal. */
function braceAlternatives(body: Unit[]): Unit[][] | undefined {
  const parts: Unit[][] = [[]];
  let depth = 0;
  for (const unit of body) {
    if (isSpecial(unit, "{")) depth += 1;
    if (isSpecial(unit, "}")) depth -= 1;
    if (depth === 0 && isSpecial(unit, ",")) parts.push([]);
    else parts.at(-1)!.push(unit);
  }
  if (parts.length > 1) return parts;
  return sequence(body);
}

function sequence(body: Unit[]): Unit[][] | undefined {
  if (body.some((unit) => unit.quoted)) return undefined;
  const match = /^(-?\d+|[A-Za-z])\.\.(-?\d+|[A-Za-z])(?:\.\.(-?\d+))?$/.exec(body.map((unit) => unit.char).join(""));
  if (!match) return undefined;
  const [, from, to, stepText] = match;
  const numeric = /\d/.test(from!);
  if (numeric !== /\d/.test(to!)) return undefined;
  const start = numeric ? Number(from) : from!.charCodeAt(0);
  const end = numeric ? Number(to) : to!.charCodeAt(0);
  const step = Math.max(1, Math.abs(Number(stepText ?? 1)));
  const count = Math.floor(Math.abs(end - start) / step) + 1;
  if (count > MAX_RESULTS) return Array.from({ length: MAX_RESULTS + 1 }, () => []);
  const width = numeric && /^-?0\d/.test(from!) ? from!.replace("-", "").length : 0;
  return Array.from({ length: count }, (_, index) => {
    const value = start + (end >= start ? 1 : -1) * index * step;
    const text = numeric ? String(value).padStart(width, "0") : String.fromCharCode(value);
    return [...text].map((char) => ({ char, quoted: false }));
  });
}
