import { mkdir, readFile, readlink, stat, writeFile } from "node:fs/promises";
import { gzipSync } from "fflate";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AgentTools } from "@agent-tools/sdk";
import { ArchiveError, extractToolArchive, writeTar, type ArchiveErrorCode } from "@agent-tools/sdk/archive";
import { buildBundle, tarGzFiles, zipFiles, type ArchiveMember } from "../../support/bundles.js";
import { startTestRegistry, uploadBundle, type TestRegistry } from "../../support/registry.js";
import { TempDirs } from "../support/temp-dirs.js";

/**
 * Archive links resolved as the kernel resolves them once unpacked: every link of the archive
 * followed against the archive's own tree, in any order of definition. Each hostile shape is
 * refused in both formats at the SDK's extraction (nothing written) and at the registry's upload
 * (a 422 naming the entry); benign links keep working on disk.
 */
const temp = new TempDirs();
let dir: string;
let registry: TestRegistry;

beforeAll(async () => {
  dir = await temp.make();
  registry = await startTestRegistry();
});

afterAll(async () => {
  await registry.close();
  await temp.removeAll();
});

function link(linkTarget: string): ArchiveMember {
  return { type: "symlink", linkTarget };
}

const PYTHON = "class AgentSpaceV1Tool:\n    def execute(self, input_data):\n        return 'ran'\n";

/** Hostile link shapes: members besides code/function.py, the entry the refusal must name, and what it must say. */
const hostile: Array<{ name: string; members: Record<string, ArchiveMember>; entry: string; code: ArchiveErrorCode; says: RegExp }> = [
  {
    name: "the issue's chain: each link inside on paper, three levels up once followed",
    members: { "code/a/up": link(".."), "code/a/up2": link("up/.."), "code/a/up3": link("up2/..") },
    entry: "code/a/up3",
    code: "ARCHIVE_LINK_ESCAPE",
    says: /leads above the archive's root \(code\/a\/up3 -> "up2\/\.\.", code\/a\/up2 -> "up\/\.\.", code\/a\/up -> "\.\."\)/,
  },
  {
    name: "`..` after a link to a shallower folder",
    members: { "code/lib/": {}, "code/lib/top": link(".."), "code/x": link("lib/top/../../etc/passwd") },
    entry: "code/x",
    code: "ARCHIVE_LINK_ESCAPE",
    says: /above the archive's root/,
  },
  {
    name: "through a link to a folder, then out",
    members: { "code/lib/": {}, "code/x": link("a/b/c/d/../../../tmp"), "code/a/b/c/d": link("../../../lib") },
    entry: "code/x",
    code: "ARCHIVE_LINK_ESCAPE",
    says: /above the archive's root \(code\/x -> "a\/b\/c\/d\/\.\.\/\.\.\/\.\.\/tmp", code\/a\/b\/c\/d -> "\.\.\/\.\.\/\.\.\/lib"\)/,
  },
  {
    name: "a link to a link defined later, leading to the archive's root",
    members: { "code/x": link("y"), "code/y": link("..") },
    entry: "code/x",
    code: "ARCHIVE_LINK_ESCAPE",
    says: /leads to "\." of the archive, outside code\//,
  },
  {
    name: "an absolute target reached through a relative link",
    members: { "code/shadow": link("etc/shadow"), "code/etc": link("/etc") },
    entry: "code/shadow",
    code: "ARCHIVE_LINK_ESCAPE",
    says: /to the absolute path \/etc \(code\/shadow -> "etc\/shadow", code\/etc -> "\/etc"\)/,
  },
  {
    name: "a link whose case differs from the link it goes through (one file on macOS and Windows)",
    members: { "code/a/up": link(".."), "code/x": link("a/UP/../..") },
    entry: "code/x",
    code: "ARCHIVE_LINK_ESCAPE",
    says: /code\/x -> "a\/UP\/\.\.\/\.\.", code\/a\/up -> "\.\."/,
  },
  {
    name: "a Windows-style target",
    members: { "code/w": link("..\\..\\secret") },
    entry: "code/w",
    code: "ARCHIVE_LINK_ESCAPE",
    says: /to the Windows path/,
  },
  {
    name: "a loop of two links",
    members: { "code/a": link("b"), "code/b": link("a") },
    entry: "code/a",
    code: "ARCHIVE_LINK_LOOP",
    says: /more than 40 links \(code\/a -> "b", code\/b -> "a", code\/a -> "b"/,
  },
  {
    name: "a link to itself",
    members: { "code/self": link("self/x") },
    entry: "code/self",
    code: "ARCHIVE_LINK_LOOP",
    says: /never resolves/,
  },
  {
    name: "a chain of 41 links",
    members: Object.fromEntries([...Array(41).keys()].map((n) => [`code/l${n}`, link(n === 40 ? "function.py" : `l${n + 1}`)])),
    entry: "code/l0",
    code: "ARCHIVE_LINK_LOOP",
    says: /more than 40 links/,
  },
];

const formats: Array<[string, (files: Record<string, ArchiveMember>) => Uint8Array]> = [
  ["zip", zipFiles],
  ["tar.gz", tarGzFiles],
];

describe.each(formats)("hostile link chains (%s)", (_format, pack) => {
  it.each(hostile)("$name: refused at extraction, nothing written", async ({ members, entry, code, says }) => {
    const target = join(dir, `extract-${Math.random().toString(36).slice(2)}`);
    const error = await extractToolArchive(pack({ "code/function.py": PYTHON, ...members }), { targetDir: target }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(ArchiveError);
    expect((error as ArchiveError).code).toBe(code);
    expect((error as Error).message).toContain(`The symlink "${entry}"`);
    expect((error as Error).message).toMatch(says);
    await expect(stat(target)).rejects.toThrow(/ENOENT/);
  });

  it.each(hostile)("$name: a 422 naming the entry at upload", async ({ name, members, entry }) => {
    const toolId = `links-${name
      .replace(/[^a-z0-9]+/gi, "-")
      .toLowerCase()
      .slice(0, 40)}-${pack === zipFiles ? "zip" : "tgz"}`.replace(/-+$/, "");
    const spec = { tool_id: toolId, tool_runtime_type: "python", tool_metadata: { version: "1.0.0" } };
    const upload = await uploadBundle(
      registry.url,
      registry.token,
      buildBundle({ spec, toolZip: pack({ "code/function.py": PYTHON, ...members }), toolMd: `# ${toolId}\n` }),
    );
    expect(upload.status).toBe(422);
    expect(String(upload.body.detail)).toContain(`tool.zip: The symlink "${entry}"`);
    expect((await fetch(`${registry.url}/tools/${toolId}`)).status).toBe(404);
  });

  it("benign links (relative, through a folder link, `..` after a link, chains, defined after use, 40 deep) unpack and work", async () => {
    const members: Record<string, ArchiveMember> = {
      "code/via": link("libs/a.py"),
      "code/function.py": PYTHON,
      "code/lib/a.py": "library a",
      "code/libs": link("lib"),
      "code/sub/link.py": link("../lib/a.py"),
      "code/lib/up": link(".."),
      "code/round": link("lib/up/lib/a.py"),
      "code/c1": link("c2"),
      "code/c2": link("lib/a.py"),
      "code/dangling": link("not-yet.txt"),
      ...Object.fromEntries([...Array(40).keys()].map((n) => [`code/k${n}`, link(n === 39 ? "lib/a.py" : `k${n + 1}`)])),
    };
    const target = join(dir, `benign-${pack === zipFiles ? "zip" : "tgz"}`);
    await extractToolArchive(pack(members), { targetDir: target });
    for (const path of ["via", "sub/link.py", "round", "c1", "k0", "libs/a.py"])
      expect(await readFile(join(target, "code", path), "utf8"), path).toBe("library a");
    expect(await readlink(join(target, "code", "dangling"))).toBe("not-yet.txt");
  });
});

describe("tar hard links", () => {
  it.each([
    ["to a file outside", "../../etc/shadow"],
    ["to an absolute path", "/etc/shadow"],
    ["to a link inside", "code/up"],
    ["to a file inside", "code/function.py"],
  ])("%s are refused, naming the entry and where it leads", async (_case, linkTarget) => {
    const tar = gzipSync(
      writeTar([
        { path: "code/function.py", data: PYTHON },
        { path: "code/up", type: "symlink", linkTarget: ".." },
        { path: "code/h", type: "hardlink", linkTarget },
      ]),
    );
    const target = join(dir, `hard-${Math.random().toString(36).slice(2)}`);
    const error = await extractToolArchive(tar, { targetDir: target }).catch((caught: unknown) => caught);
    expect((error as ArchiveError).code).toBe("ARCHIVE_ENTRY_TYPE");
    expect((error as Error).message).toContain(`The entry "code/h" is a hardlink to "${linkTarget}"`);
    await expect(stat(target)).rejects.toThrow(/ENOENT/);
  });
});

describe("AgentTools.add of a local tool.zip", () => {
  it("refuses the issue's chain before anything runs", async () => {
    const folder = join(dir, "local-chain");
    await mkdir(folder, { recursive: true });
    const zip = join(folder, "tool.zip");
    await writeFile(
      zip,
      zipFiles({ "code/function.py": PYTHON, "code/a/up": link(".."), "code/a/up2": link("up/.."), "code/a/up3": link("up2/..") }),
    );
    const tools = new AgentTools({ cacheDir: join(dir, "cache"), sandbox: "off" });
    try {
      await expect(tools.add({ path: zip })).rejects.toMatchObject({
        code: "ARCHIVE_LINK_ESCAPE",
        message: expect.stringContaining('"code/a/up3"'),
      });
    } finally {
      await tools.close();
    }
  });
});
