import { randomBytes } from "node:crypto";
import { gzipSync, zipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { ArchiveError, readArchive, readToolArchive, writeTar, type ArchiveErrorCode } from "@agent-tools/sdk/archive";
import { tarGzFiles, zipFiles, type ArchiveMember } from "../../support/bundles.js";

function expectArchiveError(run: () => unknown, code: ArchiveErrorCode, message?: RegExp): ArchiveError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ArchiveError);
    expect((error as ArchiveError).code).toBe(code);
    if (message) expect((error as ArchiveError).message).toMatch(message);
    return error as ArchiveError;
  }
  throw new Error(`expected ArchiveError ${code}, nothing was thrown`);
}

/** Both formats, so every guard is proven on zip and on tar.gz. */
const formats: Array<[string, (files: Record<string, ArchiveMember>) => Uint8Array]> = [
  ["zip", zipFiles],
  ["tar.gz", tarGzFiles],
];

describe.each(formats)("path guards (%s)", (_format, pack) => {
  it("refuses `..` segments (zip slip)", () => {
    expectArchiveError(
      () => readToolArchive(pack({ "code/../../etc/passwd": "x" })),
      "ARCHIVE_PATH_TRAVERSAL",
      /"code\/\.\.\/\.\.\/etc\/passwd".*zip slip/,
    );
    expectArchiveError(() => readToolArchive(pack({ "code/a/../b.py": "x" })), "ARCHIVE_PATH_TRAVERSAL");
  });

  it("refuses absolute paths and drive letters", () => {
    expectArchiveError(() => readToolArchive(pack({ "/code/function.py": "x" })), "ARCHIVE_PATH_ABSOLUTE", /absolute path/);
    expectArchiveError(() => readToolArchive(pack({ "C:/code/function.py": "x" })), "ARCHIVE_PATH_ABSOLUTE");
  });

  it("refuses backslashes, which Windows extractors treat as separators", () => {
    expectArchiveError(() => readToolArchive(pack({ "code\\..\\..\\evil": "x" })), "ARCHIVE_PATH_BACKSLASH", /backslash/);
  });

  it("refuses entries outside code/ and names them", () => {
    const error = expectArchiveError(
      () => readToolArchive(pack({ "code/function.py": "x", "README.md": "x" })),
      "ARCHIVE_OUTSIDE_CODE",
      /"README\.md" is outside it/,
    );
    expect(error.message).toContain("zip -r tool.zip code");
  });

  it("explains a code/ folder nested under the tool folder", () => {
    expectArchiveError(
      () => readToolArchive(pack({ "text-stats/code/function.py": "x" })),
      "ARCHIVE_NO_CODE_FOLDER",
      /nested under "text-stats\/".*cd text-stats && zip -r tool\.zip code/,
    );
  });

  it("refuses an archive without code/", () => {
    expectArchiveError(() => readToolArchive(pack({ "function.py": "x" })), "ARCHIVE_NO_CODE_FOLDER", /must unpack to a code\/ folder/);
    expectArchiveError(() => readToolArchive(pack({})), "ARCHIVE_NO_CODE_FOLDER", /empty/);
    expectArchiveError(() => readToolArchive(pack({ code: "not a folder" })), "ARCHIVE_NO_CODE_FOLDER", /"code" is a file/);
  });

  it("refuses symlinks that leave code/, resolved from the link's folder", () => {
    expectArchiveError(
      () => readToolArchive(pack({ "code/": {}, "code/key": { type: "symlink", linkTarget: "/etc/passwd" } })),
      "ARCHIVE_LINK_ESCAPE",
      /"\/etc\/passwd"/,
    );
    expectArchiveError(
      () => readToolArchive(pack({ "code/sub/up": { type: "symlink", linkTarget: "../../spec.json" } })),
      "ARCHIVE_LINK_ESCAPE",
      /outside code\//,
    );
    expectArchiveError(
      () => readToolArchive(pack({ "code/up": { type: "symlink", linkTarget: "../../../x" } })),
      "ARCHIVE_LINK_ESCAPE",
      /outside the archive/,
    );
  });

  it("keeps symlinks that stay inside code/", () => {
    const archive = readToolArchive(pack({ "code/lib/a.py": "a", "code/sub/link.py": { type: "symlink", linkTarget: "../lib/a.py" } }));
    expect(archive.entries.find((entry) => entry.path === "code/sub/link.py")).toMatchObject({
      type: "symlink",
      linkTarget: "../lib/a.py",
      data: new Uint8Array(0),
    });
  });

  it("refuses device and fifo entries", () => {
    expectArchiveError(() => readToolArchive(pack({ "code/tty": { type: "character device" } })), "ARCHIVE_ENTRY_TYPE", /character device/);
    expectArchiveError(() => readToolArchive(pack({ "code/disk": { type: "block device" } })), "ARCHIVE_ENTRY_TYPE", /block device/);
    expectArchiveError(() => readToolArchive(pack({ "code/pipe": { type: "fifo" } })), "ARCHIVE_ENTRY_TYPE", /fifo/);
  });

  it("refuses entries that sit below a file or a link", () => {
    expectArchiveError(
      () => readToolArchive(pack({ "code/link": { type: "symlink", linkTarget: "." }, "code/link/x.py": "x" })),
      "ARCHIVE_PATH_CONFLICT",
      /below "code\/link", which is a symlink/,
    );
  });
});

describe("tar-only entry types", () => {
  it("refuses hard links", () => {
    const tar = gzipSync(
      writeTar([
        { path: "code/a", data: "a" },
        { path: "code/b", type: "hardlink", linkTarget: "code/a" },
      ]),
    );
    expectArchiveError(() => readToolArchive(tar), "ARCHIVE_ENTRY_TYPE", /"code\/b" is a hardlink/);
  });

  it("refuses duplicate paths, including ones that differ only by ./ and //", () => {
    const tar = gzipSync(
      writeTar([
        { path: "code/a.py", data: "1" },
        { path: "./code//a.py", data: "2" },
      ]),
    );
    expectArchiveError(() => readToolArchive(tar), "ARCHIVE_DUPLICATE_PATH", /"code\/a\.py" twice/);
  });

  it("refuses paths that differ only by case (they collide on macOS and Windows)", () => {
    expectArchiveError(
      () => readToolArchive(tarGzFiles({ "code/Makefile": "a", "code/makefile": "b" })),
      "ARCHIVE_DUPLICATE_PATH",
      /"code\/Makefile" and "code\/makefile" differ only by case/,
    );
  });

  it("refuses sparse and other exotic entry types", () => {
    const tar = writeTar([{ path: "code/a", data: "a" }]);
    tar[156] = "S".charCodeAt(0);
    fixChecksum(tar, 0);
    expectArchiveError(() => readToolArchive(gzipSync(tar)), "ARCHIVE_UNSUPPORTED_FEATURE", /type 'S'/);
  });
});

describe("format", () => {
  it("refuses bytes that are neither zip nor tar.gz, saying what they start with", () => {
    expectArchiveError(
      () => readToolArchive(new TextEncoder().encode("hello world")),
      "ARCHIVE_UNSUPPORTED_FORMAT",
      /68 65 6c 6c.*zip -r tool\.zip code/,
    );
    expectArchiveError(() => readToolArchive(new Uint8Array(0)), "ARCHIVE_UNSUPPORTED_FORMAT", /empty/);
  });

  it("refuses a gzip that does not hold a tar", () => {
    expectArchiveError(
      () => readToolArchive(gzipSync(new TextEncoder().encode("#!/bin/sh\necho hi\n".repeat(40)))),
      "ARCHIVE_UNSUPPORTED_FORMAT",
      /tar czf tool\.zip code/,
    );
  });

  it("reports damage instead of odd entries", () => {
    const zip = zipFiles({ "code/function.py": "print(1)" });
    expectArchiveError(() => readToolArchive(zip.subarray(0, zip.length - 10)), "ARCHIVE_CORRUPT", /truncated/);
    const tar = writeTar([{ path: "code/a", data: "a" }]);
    tar[0] = "x".charCodeAt(0);
    expectArchiveError(() => readToolArchive(tar), "ARCHIVE_CORRUPT", /checksum/);
    const flipped = zipSync({ "code/a.py": [new TextEncoder().encode("print('stored')"), { level: 0 }] });
    flipped[30 + "code/a.py".length] = 0x71; // first data byte of the stored entry: "print" → "qrint"
    expectArchiveError(() => readToolArchive(flipped), "ARCHIVE_CORRUPT", /"code\/a\.py" fails its CRC-32 check/);
    const gz = tarGzFiles({ "code/a": "a" });
    expectArchiveError(() => readToolArchive(gz.subarray(0, gz.length - 12)), "ARCHIVE_CORRUPT");
  });
});

describe("limits", () => {
  const zeros = new Uint8Array(5 * 1024 * 1024);

  it("refuses a zip bomb by compression ratio before inflating it", () => {
    expectArchiveError(() => readToolArchive(zipFiles({ "code/bomb": zeros })), "ARCHIVE_COMPRESSION_RATIO", /decompression bomb/);
  });

  it("refuses a tar.gz bomb by ratio while inflating", () => {
    expectArchiveError(
      () => readToolArchive(tarGzFiles({ "code/bomb": zeros })),
      "ARCHIVE_COMPRESSION_RATIO",
      /expands more than 200 times/,
    );
  });

  it("refuses files and archives over the size limits", () => {
    const noise = crypto.getRandomValues(new Uint8Array(60_000));
    expectArchiveError(
      () => readToolArchive(zipFiles({ "code/big": noise }), { maxEntryBytes: 50_000 }),
      "ARCHIVE_ENTRY_TOO_LARGE",
      /"code\/big" unpacks to 60000 bytes/,
    );
    const twoFiles = { "code/a": noise.subarray(0, 40_000), "code/b": noise.subarray(20_000) };
    expectArchiveError(() => readToolArchive(zipFiles(twoFiles), { maxTotalBytes: 70_000 }), "ARCHIVE_TOTAL_TOO_LARGE");
    expectArchiveError(
      () => readToolArchive(tarGzFiles({ "code/big": noise }), { maxTotalBytes: 10_000, maxEntries: 2 }),
      "ARCHIVE_TOTAL_TOO_LARGE",
    );
  });

  it("refuses too many entries (checked from the zip directory before any entry is read)", () => {
    const files = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`code/f${i}.py`, "x"]));
    expectArchiveError(() => readToolArchive(zipFiles(files), { maxEntries: 10 }), "ARCHIVE_TOO_MANY_ENTRIES", /12 entries; at most 10/);
    expectArchiveError(() => readToolArchive(tarGzFiles(files), { maxEntries: 10 }), "ARCHIVE_TOO_MANY_ENTRIES", /more than 10 entries/);
  });

  it("refuses on the declared size without inflating, and catches an entry that lies about its size", () => {
    const zip = zipFiles({ "code/a.py": "print('hello')\n".repeat(100) });
    const declaresHuge = patchZipUncompressedSize(zip, 0x7fff_ffff);
    expectArchiveError(() => readToolArchive(declaresHuge), "ARCHIVE_ENTRY_TOO_LARGE", /2147483647 bytes/);
    const declaresTiny = patchZipUncompressedSize(zip, 10);
    expectArchiveError(() => readToolArchive(declaresTiny), "ARCHIVE_CORRUPT", /inflates beyond its declared 10 bytes/);
    const declaresMore = patchZipUncompressedSize(zip, 5000);
    expectArchiveError(() => readToolArchive(declaresMore), "ARCHIVE_CORRUPT", /inflates to 1500 bytes, not the declared 5000/);
    // Over 64 KiB of compressed input takes the streaming path, which must catch the lie as well.
    const large = zipFiles({ "code/noise.bin": new Uint8Array(randomBytes(100_000)) });
    expectArchiveError(
      () => readToolArchive(patchZipUncompressedSize(large, 70_000)),
      "ARCHIVE_CORRUPT",
      /inflates beyond its declared 70000 bytes/,
    );
  });

  it("lets tiny highly compressible files through (ratio applies above 1 MiB)", () => {
    const archive = readToolArchive(zipFiles({ "code/empty.txt": new Uint8Array(500_000) }));
    expect(archive.entries.find((entry) => entry.path === "code/empty.txt")?.data.length).toBe(500_000);
  });
});

describe("readArchive (no code/ layout)", () => {
  it("reads any safe layout but keeps the path guards", () => {
    expect(readArchive(zipFiles({ "spec.json": "{}", "tool.md": "#" })).entries.map((entry) => entry.path)).toEqual([
      "spec.json",
      "tool.md",
    ]);
    expectArchiveError(() => readArchive(zipFiles({ "../spec.json": "{}" })), "ARCHIVE_PATH_TRAVERSAL");
  });
});

/** Rewrites the uncompressed size of the first central-directory entry. */
function patchZipUncompressedSize(zip: Uint8Array, size: number): Uint8Array {
  const copy = zip.slice();
  const view = new DataView(copy.buffer);
  for (let offset = copy.length - 22; offset >= 0; offset--) {
    if (view.getUint32(offset, true) === 0x06054b50) {
      const directory = view.getUint32(offset + 16, true);
      view.setUint32(directory + 24, size, true);
      return copy;
    }
  }
  throw new Error("no end of central directory");
}

function fixChecksum(tar: Uint8Array, offset: number): void {
  const header = tar.subarray(offset, offset + 512);
  header.fill(0x20, 148, 156);
  const sum = header.reduce((total, byte) => total + byte, 0);
  header.set(new TextEncoder().encode(`${sum.toString(8).padStart(6, "0")}\0 `), 148);
}
