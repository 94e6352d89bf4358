import { describe, expect, it } from "vitest";
import { ArchiveError, findBinaryExecutable, findPythonEntry, readToolArchive } from "@agent-tools/sdk/archive";
import { tarGzFiles, zipFiles, type ArchiveMember } from "../../support/bundles.js";

const tool = (files: Record<string, ArchiveMember>) => readToolArchive(tarGzFiles({ "code/": {}, ...files }));

function errorOf(run: () => unknown): ArchiveError {
  try {
    run();
  } catch (error) {
    if (error instanceof ArchiveError) return error;
    throw error;
  }
  throw new Error("nothing was thrown");
}

describe("findPythonEntry", () => {
  it("returns code/function.py", () => {
    const entry = findPythonEntry(
      readToolArchive(zipFiles({ "code/function.py": "class AgentSpaceV1Tool: pass\n", "code/requirements.txt": "" })),
    );
    expect(entry.path).toBe("code/function.py");
  });

  it("says what the archive holds instead", () => {
    const error = errorOf(() => findPythonEntry(tool({ "code/main.py": "", "code/functions.py": "" })));
    expect(error.code).toBe("ARCHIVE_PYTHON_ENTRY_MISSING");
    expect(error.message).toMatch(/needs code\/function\.py.*holds code\/main\.py, code\/functions\.py/);
    expect(errorOf(() => findPythonEntry(tool({ "code/function.py/": {} }))).code).toBe("ARCHIVE_PYTHON_ENTRY_MISSING");
  });
});

describe("findBinaryExecutable", () => {
  it("returns the only executable file", () => {
    expect(findBinaryExecutable(tool({ "code/increment": { data: "\x7fELF", mode: 0o755 } }))).toMatchObject({
      path: "code/increment",
      mode: 0o755,
    });
  });

  it("refuses an empty code/ (or one holding only folders)", () => {
    expect(errorOf(() => findBinaryExecutable(tool({}))).code).toBe("ARCHIVE_BINARY_MISSING");
    const error = errorOf(() => findBinaryExecutable(tool({ "code/bin/": {} })));
    expect(error.code).toBe("ARCHIVE_BINARY_MISSING");
    expect(error.message).toContain("holds no file");
  });

  it("refuses several entries and lists them", () => {
    const error = errorOf(() => findBinaryExecutable(tool({ "code/a": { data: "a", mode: 0o755 }, "code/b": { data: "b", mode: 0o755 } })));
    expect(error.code).toBe("ARCHIVE_BINARY_SEVERAL");
    expect(error.message).toMatch(/exactly one regular file.*holds code\/a, code\/b/);
    expect(errorOf(() => findBinaryExecutable(tool({ "code/run": { type: "symlink", linkTarget: "x" } }))).code).toBe(
      "ARCHIVE_BINARY_SEVERAL",
    );
  });

  it("refuses a file without the executable bit and says how to keep it", () => {
    const error = errorOf(() => findBinaryExecutable(tool({ "code/increment": { data: "x", mode: 0o644 } })));
    expect(error.code).toBe("ARCHIVE_BINARY_NOT_EXECUTABLE");
    expect(error.message).toMatch(/chmod \+x code\/increment.*tar czf tool\.zip code/);
  });
});
