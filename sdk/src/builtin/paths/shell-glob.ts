export interface ShellGlobOptions {
  /** Bash does not let a leading `*` or `?` match a dot-file; option-matching wants them to. */
  hideDotFiles?: boolean;
  /** Whether `*` may cross `/` (matching a whole path at once). */
  crossesSlashes?: boolean;
}

/**
 * A regular expression for everything a bash glob or brace expansion may produce: `*`, `?`,
 * `[...]` (with `[!...]`), and `{a,b}` as alternatives (`{1..9}` as anything). It over-approximates
 * rather than miss, because callers ask "could this become something dangerous?".
 */
export function shellGlobToRegExp(glob: string, options: ShellGlobOptions = {}): RegExp {
  try {
    return new RegExp(`^${convert(glob, options, true)}$`, "is");
  } catch {
    return /^/;
  }
}

function convert(glob: string, options: ShellGlobOptions, atStart: boolean): string {
  const any = options.crossesSlashes ? ".*" : "[^/]*";
  let source = "";
  for (let index = 0; index < glob.length; index += 1) {
    const character = glob[index]!;
    const leading = atStart && index === 0 && options.hideDotFiles;
    if (character === "*") source += leading ? `(?!\\.)${any}` : any;
    else if (character === "?") source += leading ? "[^.]" : ".";
    else if (character === "[") {
      const end = glob.indexOf("]", index + 2);
      if (end < 0) source += "\\[";
      else {
        source += `[${glob
          .slice(index + 1, end)
          .replace(/^!/, "^")
          .replace(/\\/g, "\\\\")}]`;
        index = end;
      }
    } else if (character === "{") {
      const end = matchingBrace(glob, index);
      if (end < 0) source += "\\{";
      else {
        const alternatives = splitTopLevel(glob.slice(index + 1, end));
        source += alternatives.length > 1 ? `(?:${alternatives.map((part) => convert(part, options, false)).join("|")})` : ".*";
        index = end;
      }
    } else source += character.replace(/[.^$+()|\\/\]}-]/g, "\\$&");
  }
  return source;
}

function matchingBrace(text: string, open: number): number {
  let depth = 0;
  for (let index = open; index < text.length; index += 1) {
    if (text[index] === "{") depth += 1;
    else if (text[index] === "}" && --depth === 0) return index;
  }
  return -1;
}

function splitTopLevel(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let index = 0; index < text.length; index += 1) {
    if (text[index] === "{") depth += 1;
    else if (text[index] === "}") depth -= 1;
    else if (text[index] === "," && depth === 0) {
      parts.push(text.slice(start, index));
      start = index + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}
