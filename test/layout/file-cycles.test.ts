// No import cycles between files (CONTRIBUTING.md, "Layout"), type-only imports included: a cycle
// inside one folder is invisible to the folder check beside this one, and it is where a module's
// initialisation order starts to matter. Cycles are found as strongly connected components.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import { describe, expect, it } from "vitest";

const ROOTS = ["functions", "sdk/src", "bench", "test"];
const IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)["'](\.{1,2}\/[^"']+)["']/gm;

/** The source file an import specifier names (`./x.js` is `./x.ts`), or undefined outside the tree. */
function resolveImport(fromFile: string, specifier: string): string | undefined {
  const written = normalize(join(dirname(fromFile), specifier));
  const stem = written.replace(/\.(js|mjs|ts|tsx)$/, "");
  for (const candidate of [`${stem}.ts`, `${stem}.tsx`, join(written, "index.ts")]) {
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}

/** Every source file → the source files it imports. */
function fileImports(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const root of ROOTS) {
    for (const file of readdirSync(root, { recursive: true, encoding: "utf8" })) {
      if (!/\.tsx?$/.test(file) || file.split("/").includes("node_modules")) continue;
      const path = join(root, file);
      const targets = new Set<string>();
      for (const match of readFileSync(path, "utf8").matchAll(IMPORT)) {
        const target = resolveImport(path, match[1]!);
        if (target !== undefined && target !== path) targets.add(target);
      }
      graph.set(path, targets);
    }
  }
  return graph;
}

/** Strongly connected components of more than one file (Tarjan's algorithm, iterative). */
function importCycles(graph: Map<string, Set<string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  let next = 0;
  for (const root of graph.keys()) {
    if (index.has(root)) continue;
    const work: { file: string; targets: Iterator<string> }[] = [];
    const enter = (file: string) => {
      index.set(file, next);
      low.set(file, next);
      next += 1;
      stack.push(file);
      onStack.add(file);
      work.push({ file, targets: (graph.get(file) ?? new Set()).values() });
    };
    enter(root);
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      const step = frame.targets.next();
      if (!step.done) {
        const target = step.value;
        if (!index.has(target)) enter(target);
        else if (onStack.has(target)) low.set(frame.file, Math.min(low.get(frame.file)!, index.get(target)!));
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent !== undefined) low.set(parent.file, Math.min(low.get(parent.file)!, low.get(frame.file)!));
      if (low.get(frame.file) !== index.get(frame.file)) continue;
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== frame.file);
      if (component.length > 1) cycles.push(component.sort());
    }
  }
  return cycles;
}

describe("file imports", () => {
  const graph = fileImports();

  it("are read from the source, type-only imports and re-exports included", () => {
    expect(graph.get("sdk/src/agent-tools.ts")?.size).toBeGreaterThan(0);
    expect(
      importCycles(
        new Map([
          ["a.ts", new Set(["b.ts"])],
          ["b.ts", new Set(["c.ts"])],
          ["c.ts", new Set(["a.ts"])],
        ]),
      ),
    ).toEqual([["a.ts", "b.ts", "c.ts"]]);
    expect(
      importCycles(
        new Map([
          ["a.ts", new Set(["b.ts"])],
          ["b.ts", new Set()],
        ]),
      ),
    ).toEqual([]);
  });

  it("form no cycle: no file reaches itself through its imports", () => {
    expect(importCycles(graph).map((cycle) => cycle.join(" → "))).toEqual([]);
  });
});
