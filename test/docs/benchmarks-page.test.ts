// docs/benchmarks.md is the template filled in by one run of `npm run bench:page`, and no other
// page carries a benchmark table (bench/benchmarks-page.ts).
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { benchRuns } from "../../bench/bench-runs.js";
import { PAGE_PATH, pageBlocks, placeholders, renderPage, TEMPLATE_PATH } from "../../bench/benchmarks-page.js";

const template = readFileSync(TEMPLATE_PATH, "utf8");
const page = readFileSync(PAGE_PATH, "utf8");

describe("the benchmarks page", () => {
  it("has one section in the template for the machine and for every benchmark run, each once", () => {
    const names = placeholders(template);
    expect([...names].sort()).toEqual(["machine", ...benchRuns().map((run) => `bench:${run.name}`)].sort());
    expect(new Set(names).size).toBe(names.length);
  });

  it("is the template filled in with generated blocks, nothing edited by hand", () => {
    const blocks = pageBlocks(page);
    expect(Object.keys(blocks).sort()).toEqual([...placeholders(template)].sort());
    expect(renderPage(template, blocks)).toBe(page);
  });

  it("says for each benchmark the command that produced its block, and what the run was measured on", () => {
    const blocks = pageBlocks(page);
    expect(blocks.machine).toMatch(/one run of `npm run bench:page`.*\n.*Node v\d+.*\n.*load average/);
    for (const run of benchRuns()) {
      // `npx tsx bench/x.bench.ts`, or `<node> <flags> --import tsx bench/x.bench.ts` for runs that need flags or another Node.
      const script = `bench/${run.file}`.replaceAll(".", "\\.");
      expect(blocks[`bench:${run.name}`], run.name).toMatch(
        new RegExp(`^\`(npx tsx|\\S*node [^\`]*--import tsx) ${script}\`.*: \\d+ s, load average`),
      );
    }
  });

  it("refuses to render a template whose section has no generated block", () => {
    expect(() => renderPage("a\n{{bench:missing}}\n", {})).toThrow(/No generated block for \{\{bench:missing\}\}/);
  });

  it("is the only documentation page with a table of timings", () => {
    // A table's header row (the row above its |---| line) that names a timing or a score.
    const timingTable = /^\|.*\b(p50|p99|req\/s|searches\/s|top-1|ms)\b.*\|\n\|[-:| ]+\|$/m;
    const pages = [
      "README.md",
      "sdk/README.md",
      ...readdirSync("docs", { recursive: true, encoding: "utf8" }).map((file) => `docs/${file}`),
    ];
    const withTables = pages
      .filter((file) => file.endsWith(".md") && file !== "docs/benchmarks.md")
      .filter((file) => timingTable.test(readFileSync(file, "utf8")));
    expect(withTables).toEqual([]);
    expect(timingTable.test(page)).toBe(true);
  });
});
