// One line width, 140 columns (biome.jsonc's lineWidth; CONTRIBUTING.md, "Style"): Biome keeps code
// within it, but leaves comments as written, so this keeps comments within it too. Strings Biome
// cannot break are left to the reviewer.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

const LINE_WIDTH = 140;
const COMMENT_LINE = /^\s*(\/\/|\/\*\*|\*)/;
/** An example's code inside a comment keeps its own layout. */
const COMMENT_CODE = /^\s*\*\s{3,}\S/;

function longCommentLines(text: string): number[] {
  return text
    .split("\n")
    .flatMap((line, index) => (line.length > LINE_WIDTH && COMMENT_LINE.test(line) && !COMMENT_CODE.test(line) ? [index + 1] : []));
}

describe("comment lines", () => {
  it("are found in the source", () => {
    expect(longCommentLines(`const x = 1;\n// ${"word ".repeat(40)}\n *   ${"code ".repeat(40)}`)).toEqual([2]);
  });

  it(`stay within ${LINE_WIDTH} columns`, () => {
    const files = execFileSync("git", ["ls-files", "-z", "*.ts", "*.tsx"], { encoding: "utf8" }).split("\0").filter(Boolean);
    expect(files.length).toBeGreaterThan(100);
    const long = files.flatMap((file) => longCommentLines(readFileSync(file, "utf8")).map((line) => `${file}:${line}`));
    expect(long).toEqual([]);
  });
});
