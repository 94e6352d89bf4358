/**
 * Bundles zipped on a Mac: Finder's "Compress" adds `__MACOSX/` resource forks, Finder leaves
 * `.DS_Store` files, and macOS tar stores AppleDouble `._<name>` files. The registry accepts such
 * bundles and tool archives, and the SDK unpacks them to the same tool, without those entries.
 */
import { readFileSync } from "node:fs";
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { AgentTools } from "@agent-tools/sdk";
import { readArchive, readToolArchive } from "@agent-tools/sdk/archive";
import { buildBundle, FIXTURE_TOOLS_DIR, readFixtureSpec, zipFiles } from "../../support/bundles.js";
import { uploadBundle } from "../../support/registry.js";
import { registryForFile } from "../../support/registry-for-file.js";

const suite = registryForFile({}, "agent-tools-macos-");

const appleDouble = "\u0000\u0005\u0016\u0007 Mac OS X resource fork";

describe("macOS metadata in archives", () => {
  it("is ignored in a bundle zipped by Finder and in its tool.zip, and the tool runs", async () => {
    const toolZip = zipFiles({
      "code/": { type: "directory" },
      "code/function.py": readFileSync(join(FIXTURE_TOOLS_DIR, "text-stats/code/function.py"), "utf8"),
      "code/.DS_Store": "finder state",
      "__MACOSX/": { type: "directory" },
      "__MACOSX/code/._function.py": appleDouble,
    });
    const spec = { ...readFixtureSpec("text-stats"), tool_id: "finder-zipped" };
    const bundle = buildBundle({
      spec,
      toolZip,
      toolMd: "# finder-zipped",
      extraFiles: {
        ".DS_Store": "finder state",
        "__MACOSX/": { type: "directory" },
        "__MACOSX/._spec.json": appleDouble,
        "__MACOSX/._tool.zip": appleDouble,
      },
    });
    const uploaded = await uploadBundle(suite.registry.url, suite.registry.token, bundle, "finder-zipped.zip");
    expect(uploaded.body).toMatchObject({ tool_id: "finder-zipped" });
    expect(uploaded.status).toBe(200);

    const tools = new AgentTools({ toolsDbUrl: suite.registry.url, cacheDir: suite.folder });
    try {
      await tools.add("finder-zipped", { top_n: 1 });
      expect(await tools.executeToolById("finder-zipped", { text: "b a b" })).toEqual({ word_count: 3, unique_words: 2, top_words: ["b"] });
      const [tree] = await readdir(join(suite.folder, "trees"));
      expect((await readdir(join(suite.folder, "trees", tree!), { recursive: true })).sort()).toEqual(["code", "code/function.py"]);
    } finally {
      await tools.close();
    }
  });

  it("is ignored by the archive reader, which still refuses a tool's real extra files", () => {
    const archive = readToolArchive(
      zipFiles({ "code/function.py": "x", "code/._function.py": appleDouble, "__MACOSX/code/._x": appleDouble, "code/sub/.DS_Store": "x" }),
    );
    expect(archive.entries.map((entry) => entry.path)).toEqual(["code/function.py"]);
    expect(() => readToolArchive(zipFiles({ "code/function.py": "x", "notes.txt": "x" }))).toThrow(/"notes\.txt" is outside it/);
    // Names that only look alike are kept: only the exact metadata names are dropped.
    expect(
      readArchive(zipFiles({ "code/DS_Store": "x", "code/MACOSX/a": "x", "code/a._b": "x" })).entries.map((entry) => entry.path),
    ).toEqual(["code/DS_Store", "code/MACOSX/a", "code/a._b"]);
  });

  it("still has every guard applied to it (a hostile __MACOSX entry is refused, not skipped)", () => {
    expect(() => readToolArchive(zipFiles({ "code/function.py": "x", "__MACOSX/../../etc/x": "x" }))).toThrow();
  });
});
