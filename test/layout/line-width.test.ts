// One line width, 140 columns (biome.jsonc's lineWidth; CONTRIBUTING.md, "Style"), for every line of
// TypeScript: Biome keeps code within it but leaves comments and strings as written, so this holds
// them too. A long string is written as a concatenation of pieces. Exempt, because one token cannot
// be split: an example's code inside a comment (it keeps its own layout), a regular-expression
// literal on its line, and a run of more than 100 characters without a space (a URL, base64, a
// regex source held in a string).
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

const LINE_WIDTH = 140;
const COMMENT_LINE = /^\s*(\/\/|\/\*\*|\*)/;
/** An example's code inside a comment keeps its own layout. */
const COMMENT_CODE = /^\s*\*\s{3,}\S/;
/** A regular-expression literal, as Biome leaves one too long for a line: on its own line, maybe negated or followed by a call. */
const REGEX_LINE = /^\s*!?\/(?![/*]).*\/[dgimsuvy]*(\)*[,;]?|\.\w+\()$/;
const UNBREAKABLE_RUN = 100;

/** Why a line over the width may stay, or undefined when it must be wrapped. */
function exemption(line: string): string | undefined {
  if (COMMENT_LINE.test(line)) return COMMENT_CODE.test(line) ? "code in a comment" : undefined;
  if (REGEX_LINE.test(line)) return "a regular expression";
  if (line.split(/\s+/).some((run) => run.length > UNBREAKABLE_RUN)) return "one token without spaces";
  return undefined;
}

function longLines(text: string): number[] {
  return text.split("\n").flatMap((line, index) => (line.length > LINE_WIDTH && exemption(line) === undefined ? [index + 1] : []));
}

describe("source lines", () => {
  it("are found when too long, and exempt only when one token cannot be split", () => {
    const words = "word ".repeat(40);
    const sample = [
      "const x = 1;",
      `// ${words}`,
      ` *   ${"code ".repeat(40)}`,
      `  message: "${words}",`,
      `  \`${words}\`,`,
      `      /^${words}$/,`,
      `    !/^(${"A|".repeat(60)}B)$/.test(`,
      `  "${"[a-z]".repeat(40)}";`,
      `  expect(x).toBe(1); // ${words}`,
    ].join("\n");
    expect(longLines(sample)).toEqual([2, 4, 5, 9]);
  });

  it(`stay within ${LINE_WIDTH} columns`, () => {
    const files = execFileSync("git", ["ls-files", "-z", "*.ts", "*.tsx"], { encoding: "utf8" }).split("\0").filter(Boolean);
    expect(files.length).toBeGreaterThan(100);
    const long = files.flatMap((file) => longLines(readFileSync(file, "utf8")).map((line) => `${file}:${line}`));
    expect(long).toEqual([]);
  });
});
