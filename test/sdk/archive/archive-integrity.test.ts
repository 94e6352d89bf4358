import { createHash } from "node:crypto";
import { lstat, readdir, readFile, readlink, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AgentTools, ArchiveError, ArchiveIntegrityError } from "@agent-tools/sdk";
import { extractToolArchive } from "../../../sdk/src/archive/extract-to-directory.js";
import { fixtureBundle, tarGzFiles, zipFiles } from "../../support/bundles.js";
import { startTestRegistry, uploadBundle, type TestRegistry } from "../../support/registry.js";
import { startTamperingProxy } from "../support/tampering-proxy.js";
import { TempDirs } from "../support/temp-dirs.js";

const temp = new TempDirs();
let registry: TestRegistry;

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

beforeAll(async () => {
  registry = await startTestRegistry();
  for (const name of ["text-stats", "binary-increment"] as const) {
    expect((await uploadBundle(registry.url, registry.token, (await fixtureBundle(name)).bundle)).status).toBe(200);
  }
});

afterAll(async () => {
  await registry?.close();
  await temp.removeAll();
});

describe("extractToolArchive", () => {
  const archive = tarGzFiles({
    "code/": { type: "directory" },
    "code/run": { data: "#!/bin/sh\n", mode: 0o755 },
    "code/lib/data.txt": "data",
    "code/link": { type: "symlink", linkTarget: "lib/data.txt" },
  });

  it("writes files with their modes and links inside the target, atomically", async () => {
    const dir = await temp.make();
    const target = join(dir, "tree");
    const { sha256: hash, archive: read } = await extractToolArchive(archive, { targetDir: target, expectedSha256: sha256(archive) });
    expect(hash).toBe(sha256(archive));
    expect(read.format).toBe("tar.gz");
    expect((await stat(join(target, "code/run"))).mode & 0o777).toBe(0o755);
    expect((await stat(join(target, "code/lib/data.txt"))).mode & 0o111).toBe(0);
    expect(await readlink(join(target, "code/link"))).toBe("lib/data.txt");
    expect(await readFile(join(target, "code/link"), "utf8")).toBe("data");
    expect(await readdir(dir)).toEqual(["tree"]); // no temp sibling left
  });

  it("checks the hash before unpacking: a mismatch writes nothing", async () => {
    const dir = await temp.make();
    const error = await extractToolArchive(archive, { targetDir: join(dir, "tree"), expectedSha256: "0".repeat(64), toolId: "t" }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(ArchiveIntegrityError);
    expect(error).toMatchObject({ code: "ARCHIVE_HASH_MISMATCH", toolId: "t", actualSha256: sha256(archive) });
    expect(await readdir(dir)).toEqual([]);
  });

  it("lets concurrent extractions of the same tree both succeed with one result", async () => {
    const dir = await temp.make();
    const target = join(dir, "tree");
    await Promise.all([1, 2, 3].map(() => extractToolArchive(archive, { targetDir: target })));
    expect(await readdir(dir)).toEqual(["tree"]);
    expect((await lstat(join(target, "code/link"))).isSymbolicLink()).toBe(true);
  });

  it("refuses zip slip and links leaving code/ (the registry's guards) and leaves nothing behind", async () => {
    const dir = await temp.make();
    await expect(extractToolArchive(zipFiles({ "code/../../evil.py": "x" }), { targetDir: join(dir, "a") })).rejects.toBeInstanceOf(
      ArchiveError,
    );
    const escaping = tarGzFiles({ "code/": { type: "directory" }, "code/out": { type: "symlink", linkTarget: "../../etc/passwd" } });
    await expect(extractToolArchive(escaping, { targetDir: join(dir, "b") })).rejects.toMatchObject({ code: "ARCHIVE_LINK_ESCAPE" });
    expect(await readdir(dir)).toEqual([]);
  });
});

describe("AgentTools refuses tampered or corrupt archives", () => {
  it("a registry entry whose hash does not match the bytes: ArchiveIntegrityError, nothing unpacked, SDK usable", async () => {
    const proxy = await startTamperingProxy(registry.url, (entry) =>
      entry.tool_id === "text-stats" ? { ...entry, tool_archive_sha256: "f".repeat(64) } : entry,
    );
    const cacheDir = await temp.make();
    const tools = new AgentTools({ toolsDbUrl: proxy.url, cacheDir });
    try {
      const error = await tools.add("text-stats").catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ArchiveIntegrityError);
      expect((error as Error).message).toMatch(
        /^The archive of tool "text-stats" has sha256 [0-9a-f]{64}, but the registry published f{64}/,
      );
      expect(await readdir(cacheDir)).not.toContain("trees");
      expect(tools.list()).toEqual([]);
      expect(await tools.executeToolById("binary-increment", { value: 1 })).toMatchObject({ result: 2 });
    } finally {
      await tools.close();
      await proxy.close();
    }
  });

  it("corrupt bytes that match their published hash: ArchiveError naming the tool", async () => {
    const garbage = new TextEncoder().encode("PK\u0003\u0004 this is not really a zip archive at all");
    const proxy = await startTamperingProxy(
      registry.url,
      (entry, proxyUrl) => ({ ...entry, tool_archive_sha256: sha256(garbage), tool_source_code_link: `${proxyUrl}/tampered-archive` }),
      garbage,
    );
    const cacheDir = await temp.make();
    const tools = new AgentTools({ toolsDbUrl: proxy.url, cacheDir });
    try {
      const error = await tools.add("text-stats").catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ArchiveError);
      expect(error).toMatchObject({ toolId: "text-stats" });
      expect((error as Error).message).toMatch(/^Tool "text-stats": /);
      expect(await readdir(join(cacheDir))).not.toContain("trees");
    } finally {
      await tools.close();
      await proxy.close();
    }
  });

  it("a local tool.zip that is not an archive is refused the same way", async () => {
    const dir = await temp.make();
    await writeFile(join(dir, "tool.zip"), "definitely not an archive");
    const tools = new AgentTools({ cacheDir: join(dir, "cache") });
    await expect(tools.add({ path: join(dir, "tool.zip"), toolId: "broken" })).rejects.toMatchObject({
      code: "ARCHIVE_UNSUPPORTED_FORMAT",
      toolId: "broken",
    });
    await tools.close();
  });
});
