import { posix } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ArchiveError, readToolArchive } from "@agent-tools/sdk/archive";
import { tarGzFiles, zipFiles } from "../../support/bundles.js";

/** Path pieces chosen to collide with every guard: traversal, roots, drive letters, backslashes, dots. */
const segment = fc.oneof(
  fc.constantFrom("code", "..", ".", "", "C:", "\\", "..\\..", "a", "b.py", "code\\..", "%2e%2e"),
  fc.string({ maxLength: 6 }),
);
const pathString = fc.array(segment, { minLength: 1, maxLength: 6 }).map((segments) => segments.join("/"));

const inside = (path: string) => (path === "code" || path.startsWith("code/")) && !path.split("/").includes("..") && !path.includes("\\");

describe("no entry path outside code/ ever comes out", () => {
  it("for arbitrary file names, in zip and tar.gz", () => {
    fc.assert(
      fc.property(fc.uniqueArray(pathString, { minLength: 1, maxLength: 4 }), fc.boolean(), (paths, asZip) => {
        const files = Object.fromEntries(paths.map((path) => [path, "x"]));
        let entries: ReturnType<typeof readToolArchive>["entries"];
        try {
          entries = readToolArchive(asZip ? zipFiles(files) : tarGzFiles(files)).entries;
        } catch (error) {
          expect(error).toBeInstanceOf(ArchiveError);
          return;
        }
        for (const entry of entries) expect(inside(entry.path), entry.path).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it("for arbitrary symlink targets: kept links resolve inside code/", () => {
    fc.assert(
      fc.property(pathString, pathString, (linkName, target) => {
        let entries: ReturnType<typeof readToolArchive>["entries"];
        try {
          entries = readToolArchive(tarGzFiles({ [`code/${linkName}`]: { type: "symlink", linkTarget: target } })).entries;
        } catch (error) {
          expect(error).toBeInstanceOf(ArchiveError);
          return;
        }
        for (const entry of entries.filter((candidate) => candidate.type === "symlink")) {
          // What the kernel would follow on disk (posix.resolve never decodes `%2e` the way URLs do).
          const resolved = posix.resolve("/root", posix.dirname(entry.path), entry.linkTarget!);
          expect(resolved.startsWith("/root/code/") || resolved === "/root/code", `${entry.path} -> ${entry.linkTarget}`).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });
});
