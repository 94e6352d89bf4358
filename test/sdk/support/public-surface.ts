import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const SDK = new URL("../../../sdk/", import.meta.url);

export interface PackageEntry {
  /** The subpath of `exports` (`.`, `./toolkit`, …). */
  subpath: string;
  /** The TypeScript source the built entry comes from. */
  source: string;
}

export interface EntrySurface {
  /** Runtime names (classes, functions, constants). */
  values: string[];
  /** Type-only names (interfaces, type aliases). */
  types: string[];
  /** `export *` lines: not allowed in an entry point (its surface would follow its modules silently). */
  starExports: string[];
}

/** `exports` of `sdk/package.json`, each mapped from `dist/*.js` back to its `src/*.ts`. */
export function packageEntries(): PackageEntry[] {
  const manifest = JSON.parse(readFileSync(new URL("package.json", SDK), "utf8")) as { exports: Record<string, { default: string }> };
  return Object.entries(manifest.exports).map(([subpath, target]) => ({
    subpath,
    source: fileURLToPath(new URL(target.default.replace(/^\.\/dist\//, "src/").replace(/\.js$/, ".ts"), SDK)),
  }));
}

const EXPORT_LIST = /export\s+(type\s+)?\{([^}]*)\}(?:\s*from\s*["'][^"']+["'])?;?/g;
const DECLARATION =
  /^export\s+(?:declare\s+)?(?:abstract\s+)?(?:async\s+)?(class|function\*?|const|let|enum|interface|type)\s+([A-Za-z_$][\w$]*)/gm;
const STAR_EXPORT = /export\s+\*[^;]*;/g;

/**
 * What one entry file exports, read from its `export { … }` statements and exported declarations;
 * the public-API test checks the value names against what the module really exports at run time,
 * so nothing the reading misses can slip through.
 */
export function entrySurface(source: string): EntrySurface {
  const text = readFileSync(source, "utf8").replace(/\/\/[^\n]*/g, "");
  const values: string[] = [];
  const types: string[] = [];
  for (const [, typeOnly, list] of text.matchAll(EXPORT_LIST)) {
    for (const item of list!
      .split(",")
      .map((part) => part.trim())
      .filter(Boolean)) {
      const isType = typeOnly !== undefined || item.startsWith("type ");
      const name = item
        .replace(/^type\s+/, "")
        .split(/\s+as\s+/)
        .pop()!
        .trim();
      (isType ? types : values).push(name);
    }
  }
  for (const [, kind, name] of text.matchAll(DECLARATION)) (kind === "interface" || kind === "type" ? types : values).push(name!);
  return {
    values: [...new Set(values)].sort(),
    types: [...new Set(types)].sort(),
    starExports: [...text.matchAll(STAR_EXPORT)].map((match) => match[0]),
  };
}
