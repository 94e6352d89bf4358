// Folders depend one way (CONTRIBUTING.md, "Layout"): no folder of functions/ or sdk/src/ imports,
// even for types only, a folder that imports it back. Biome's noImportCycles checks modules; this
// checks the folders, where two-way dependencies hide a cycle waiting to happen.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import { describe, expect, it } from "vitest";

const ROOTS = ["functions", "sdk/src"];
const IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)["'](\.{1,2}\/[^"']+)["']/gm;

/** `from` folder → folders it imports from, each with one importing file as the example. */
function folderDependencies(): Map<string, Map<string, string>> {
  const edges = new Map<string, Map<string, string>>();
  for (const root of ROOTS) {
    for (const file of readdirSync(root, { recursive: true, encoding: "utf8" })) {
      if (!/\.tsx?$/.test(file)) continue;
      const path = join(root, file);
      for (const match of readFileSync(path, "utf8").matchAll(IMPORT)) {
        const from = dirname(path);
        const to = dirname(normalize(join(from, match[1]!)));
        if (from === to || to.startsWith(`${from}/`) || from.startsWith(`${to}/`)) continue;
        if (!edges.has(from)) edges.set(from, new Map());
        edges.get(from)!.set(to, path);
      }
    }
  }
  return edges;
}

describe("folder dependencies", () => {
  const edges = folderDependencies();

  it("are read from the source (the check sees imports between folders)", () => {
    expect(edges.get("sdk/src/runtimes")?.has("sdk/src/sandbox")).toBe(true);
    expect(edges.get("functions/routes")?.has("functions/storage")).toBe(true);
  });

  it("go one way: no two folders import each other", () => {
    const twoWay: string[] = [];
    for (const [from, targets] of edges) {
      for (const [to, example] of targets) {
        const back = edges.get(to)?.get(from);
        if (from < to && back !== undefined) twoWay.push(`${from} ↔ ${to} (${example}; ${back})`);
      }
    }
    expect(twoWay).toEqual([]);
  });
});
