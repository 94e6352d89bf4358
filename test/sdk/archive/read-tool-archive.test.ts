import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { detectArchiveFormat, readToolArchive, writeTar, type ToolArchive } from "@agent-tools/sdk/archive";
import { buildBinaryToolArchive, buildPythonToolZip, FIXTURE_TOOLS_DIR, tarGzFiles, zipFiles } from "../../support/bundles.js";

const work = mkdtempSync(join(tmpdir(), "archive-read-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const longName = `code/${"n".repeat(60)}/${"m".repeat(70)}.py`;

/** A tool folder with an executable, a nested long name and an in-tree symlink, packed by the real CLIs. */
function packWithCli(): Record<string, Uint8Array> {
  const root = join(work, "tool");
  mkdirSync(join(root, "code/lib"), { recursive: true });
  mkdirSync(join(root, longName, ".."), { recursive: true });
  writeFileSync(join(root, "code/function.py"), "print('hi')\n");
  writeFileSync(join(root, "code/run.sh"), "#!/bin/sh\necho run\n");
  chmodSync(join(root, "code/run.sh"), 0o750);
  writeFileSync(join(root, longName), "x = 1\n");
  symlinkSync("../function.py", join(root, "code/lib/alias.py"));
  const out = (name: string) => join(work, name);
  execFileSync("zip", ["-qry", out("tool.zip"), "code"], { cwd: root });
  execFileSync("tar", ["czf", out("gnu.tgz"), "code"], { cwd: root });
  execFileSync("tar", ["--format=posix", "-czf", out("pax.tgz"), "code"], { cwd: root });
  execFileSync("tar", ["--format=ustar", "-czf", out("ustar.tgz"), "code"], { cwd: root });
  execFileSync("tar", ["cf", out("plain.tar"), "code"], { cwd: root });
  return Object.fromEntries(["tool.zip", "gnu.tgz", "pax.tgz", "ustar.tgz", "plain.tar"].map((name) => [name, readFileSync(out(name))]));
}

const byPath = (archive: ToolArchive) => new Map(archive.entries.map((entry) => [entry.path, entry]));

describe("archives made by zip and tar", () => {
  const archives = packWithCli();

  it.each(Object.keys(archives))("%s: detects the format and keeps paths, modes, links and data", (name) => {
    const bytes = archives[name]!;
    const archive = readToolArchive(bytes);
    expect(archive.format).toBe(detectArchiveFormat(bytes));
    expect(archive.format).toBe(name.endsWith(".zip") ? "zip" : name.endsWith(".tgz") ? "tar.gz" : "tar");
    const entries = byPath(archive);
    expect(entries.get("code")?.type).toBe("directory");
    expect(entries.get("code/run.sh")).toMatchObject({ type: "file", mode: 0o750 });
    expect(new TextDecoder().decode(entries.get("code/run.sh")?.data)).toBe("#!/bin/sh\necho run\n");
    expect(entries.get("code/function.py")?.mode).toBe(0o644);
    expect(entries.get("code/lib/alias.py")).toMatchObject({ type: "symlink", linkTarget: "../function.py" });
    expect(new TextDecoder().decode(entries.get(longName)?.data)).toBe("x = 1\n");
  });

  it("accepts a tar made with `-C dir .` (./-prefixed names, root entry skipped)", () => {
    execFileSync("sh", ["-c", `cd ${join(work, "tool")} && tar czf ../only-code.tgz ./code`]);
    const archive = readToolArchive(readFileSync(join(work, "only-code.tgz")));
    expect(archive.entries[0]?.path).toBe("code");
    expect(archive.entries.every((entry) => !entry.path.startsWith("."))).toBe(true);
  });
});

describe("writeTar", () => {
  it("writes tars that GNU tar lists, with pax records for long names", () => {
    const target = `${"t".repeat(120)}.py`;
    const tar = writeTar([
      { path: "code/", type: "directory" },
      { path: longName, data: "x", mode: 0o755 },
      { path: "code/link", type: "symlink", linkTarget: target },
    ]);
    writeFileSync(join(work, "written.tar"), tar);
    const listing = execFileSync("tar", ["tvf", join(work, "written.tar")], { encoding: "utf8" });
    expect(listing).toContain(`-rwxr-xr-x 0/0               1 1970-01-01 00:00 ${longName}`);
    expect(listing).toContain(`code/link -> ${target}`);
    expect(writeTar([{ path: "a", data: "b" }])).toEqual(writeTar([{ path: "a", data: "b" }]));
  });

  it("round-trips long non-ASCII names through pax records (lengths count bytes)", () => {
    const path = `code/${"é".repeat(80)}/${"ü".repeat(30)}.py`;
    const archive = readToolArchive(
      writeTar([
        { path, data: "x" },
        { path: "code/next.py", data: "y" },
      ]),
    );
    expect(archive.entries.map((entry) => entry.path)).toEqual([path, "code/next.py"]);
  });
});

describe("test support archives", () => {
  it("zipFiles and tarGzFiles keep modes", () => {
    for (const pack of [zipFiles, tarGzFiles]) {
      const archive = readToolArchive(pack({ "code/": {}, "code/tool": { data: "#!/bin/sh\n", mode: 0o755 }, "code/data.json": "{}" }));
      expect(archive.entries.map((entry) => [entry.path, entry.mode.toString(8)])).toEqual([
        ["code", "755"],
        ["code/tool", "755"],
        ["code/data.json", "644"],
      ]);
    }
  });

  it("buildPythonToolZip packs the fixture's code/ folder like `zip -r tool.zip code`", () => {
    const archive = readToolArchive(buildPythonToolZip(join(FIXTURE_TOOLS_DIR, "text-stats")));
    expect(archive.format).toBe("zip");
    expect(archive.entries.map((entry) => entry.path)).toEqual(["code", "code/function.py"]);
    expect(new TextDecoder().decode(archive.entries[1]?.data)).toContain("class AgentSpaceV1Tool");
  });

  it("buildBinaryToolArchive is a tar.gz with code/increment 0755 that runs", async () => {
    const bytes = await buildBinaryToolArchive();
    const archive = readToolArchive(bytes);
    expect(archive.format).toBe("tar.gz");
    const binary = archive.entries.find((entry) => entry.path === "code/increment");
    expect(binary?.mode).toBe(0o755);
    const path = join(work, "increment");
    writeFileSync(path, binary!.data, { mode: 0o755 });
    const output = join(work, "out.json");
    execFileSync(path, [
      JSON.stringify({ tool_id: "binary-increment", tool_data: { tool_parameters: { step: 2 } }, mode: "input", input: { value: 41 } }),
      output,
    ]);
    expect(JSON.parse(readFileSync(output, "utf8"))).toEqual({ result: 43, status: "success" });
  });
});
