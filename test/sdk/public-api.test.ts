import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { entrySurface, packageEntries } from "./support/public-surface.js";

/**
 * The SDK's public API is what its package entry points export: a change to it must be
 * deliberate. The pinned list is `public-api.surface.txt`; after a deliberate change, update it
 * with `npx vitest run test/sdk/public-api.test.ts -u` and say so in CHANGELOG.md.
 */
describe("the SDK's public API", () => {
  const entries = packageEntries();

  it("is made of named exports only: no entry point re-exports a whole module", () => {
    const starred = entries.flatMap((entry) => entrySurface(entry.source).starExports.map((line) => `${entry.subpath}: ${line}`));
    expect(starred).toEqual([]);
  });

  it("exports at run time exactly the values its entry files name", async () => {
    for (const entry of entries) {
      const module = (await import(entry.source)) as Record<string, unknown>;
      expect(Object.keys(module).sort(), entry.subpath).toEqual(entrySurface(entry.source).values);
    }
  });

  it("matches the pinned surface", async () => {
    const lines = entries.flatMap((entry) => {
      const surface = entrySurface(entry.source);
      return [
        ...surface.values.map((name) => `${entry.subpath} value ${name}`),
        ...surface.types.map((name) => `${entry.subpath} type ${name}`),
      ];
    });
    await expect(`${lines.join("\n")}\n`).toMatchFileSnapshot("public-api.surface.txt");
  });

  it("resolves every entry point the same way in tsc and in the tests", () => {
    const paths = (
      JSON.parse(readFileSync(new URL("../../tsconfig.json", import.meta.url), "utf8")) as {
        compilerOptions: { paths: Record<string, string[]> };
      }
    ).compilerOptions.paths;
    const expected = Object.fromEntries(
      entries.map((entry) => [`@agent-tools/sdk${entry.subpath.slice(1)}`, [`./${entry.source.slice(entry.source.indexOf("sdk/src/"))}`]]),
    );
    expect(paths).toEqual(expected);
  });

  it("reads its version from the package manifest", async () => {
    const { VERSION } = await import("@agent-tools/sdk");
    const manifest = JSON.parse(readFileSync(new URL("../../sdk/package.json", import.meta.url), "utf8")) as { version: string };
    expect(VERSION).toBe(manifest.version);
  });
});
