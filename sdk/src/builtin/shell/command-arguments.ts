import type { ShellWord } from "./shell-word.js";

/** The option name of a word: `--output=x` → `--output`, `-o` → `-o`; undefined for operands. */
export function optionName(value: string): string | undefined {
  if (!value.startsWith("-") || value === "-") return undefined;
  if (value.startsWith("--")) return value.includes("=") ? value.slice(0, value.indexOf("=")) : value;
  return value.slice(0, 2);
}

/**
 * True when any word is one of `options`. Long options match with or without `=value` and by
 * abbreviation (`--out` for `--output`); a single-letter option also matches inside a cluster (`-ro` contains `-o`), which errs on the side
 * of asking when a cluster ends in an option value.
 */
export function hasOption(words: readonly ShellWord[], options: readonly string[]): boolean {
  const letters = options.filter((option) => /^-[A-Za-z0-9]$/.test(option)).map((option) => option[1]!);
  for (const word of words) {
    const value = word.value;
    if (value === undefined || value === "--") continue;
    if (options.includes(value)) return true;
    const name = optionName(value);
    if (name === undefined) continue;
    if (options.includes(name)) return true;
    // getopt_long, git and less accept any unambiguous prefix: `--outp=x` is `--output=x`.
    if (name.length > 2 && options.some((option) => option.startsWith("--") && option.startsWith(name))) return true;
    if (!value.startsWith("--") && /^-[A-Za-z0-9]+$/.test(value) && letters.some((letter) => value.slice(1).includes(letter))) return true;
  }
  return false;
}

/** The operands (non-option words), skipping the values of `valueOptions`; everything after `--` is an operand. */
export function operands(words: readonly ShellWord[], valueOptions: readonly string[] = []): ShellWord[] {
  const result: ShellWord[] = [];
  let afterDoubleDash = false;
  for (let index = 0; index < words.length; index += 1) {
    const word = words[index]!;
    const value = word.value;
    if (afterDoubleDash || value === undefined || !value.startsWith("-") || value === "-") {
      result.push(word);
      continue;
    }
    if (value === "--") {
      afterDoubleDash = true;
      continue;
    }
    if (valueOptions.includes(value)) index += 1;
  }
  return result;
}
