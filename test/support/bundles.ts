/**
 * In-memory archives and bundles for tests: the example tools of `test/fixtures/tools/` packed the
 * way docs/authoring.md's shell steps pack them (`zip -r tool.zip code`, `tar czf tool.zip code`,
 * `zip bundle.zip spec.json tool.zip tool.md`), plus builders for hand-made archives.
 */
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { chmod, copyFile, mkdir, rename } from "node:fs/promises";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { gzipSync, zipSync, type Zippable } from "fflate";
import { writeTar, type TarEntryKind } from "@agent-tools/sdk/archive";

/** Folder of the example tools (`text-stats`, `binary-increment`). */
export const FIXTURE_TOOLS_DIR = fileURLToPath(new URL("../fixtures/tools/", import.meta.url));

export type FixtureToolName = "text-stats" | "binary-increment";

/**
 * One archive member: bytes, text, or details. `type` defaults to "file"; for zips it sets the
 * unix file-type bits, so devices, fifos and symlinks (data or `linkTarget` = target) can be built.
 */
export type ArchiveMember = Uint8Array | string | { data?: Uint8Array | string; mode?: number; type?: TarEntryKind; linkTarget?: string };

const UNIX_FILE_TYPE_BITS: Record<TarEntryKind, number> = {
  file: 0o100000,
  directory: 0o040000,
  symlink: 0o120000,
  hardlink: 0o100000,
  "character device": 0o020000,
  "block device": 0o060000,
  fifo: 0o010000,
};
const MADE_BY_UNIX = 3;

/** A zip of `files` (path → member), made on "unix" so modes and file types survive; paths ending in `/` are folders. */
export function zipFiles(files: Record<string, ArchiveMember>): Uint8Array {
  const zippable: Zippable = {};
  for (const [path, member] of Object.entries(files)) {
    const { data, mode, type } = describeMember(path, member);
    zippable[path] = [
      data,
      { os: MADE_BY_UNIX, attrs: ((UNIX_FILE_TYPE_BITS[type] | mode) << 16) >>> 0, mtime: new Date("2026-01-01T00:00:00Z") },
    ];
  }
  return zipSync(zippable, { level: 6 });
}

/** A tar.gz of `files` (path → member) with modes, links and special entries kept; paths ending in `/` are folders. */
export function tarGzFiles(files: Record<string, ArchiveMember>): Uint8Array {
  const entries = Object.entries(files).map(([path, member]) => {
    const { data, mode, type, linkTarget } = describeMember(path, member);
    return { path, type, data, mode, ...(linkTarget === undefined ? {} : { linkTarget }) };
  });
  return gzipSync(writeTar(entries), { mtime: 0 });
}

function describeMember(path: string, member: ArchiveMember) {
  const details = typeof member === "string" || member instanceof Uint8Array ? { data: member } : member;
  const type: TarEntryKind = details.type ?? (path.endsWith("/") ? "directory" : "file");
  const text = type === "symlink" ? (details.linkTarget ?? details.data ?? "") : (details.data ?? "");
  const data = typeof text === "string" ? new TextEncoder().encode(text) : text;
  const mode = details.mode ?? (type === "directory" ? 0o755 : type === "symlink" ? 0o777 : 0o644);
  return { data, mode, type, linkTarget: type === "symlink" || type === "hardlink" ? new TextDecoder().decode(data) : undefined };
}

/** `zip -r tool.zip code` run in `fixtureDir`: the `code/` folder (folders included) as a zip, modes kept. */
export function buildPythonToolZip(fixtureDir: string): Uint8Array {
  const files: Record<string, ArchiveMember> = {};
  const walk = (relative: string) => {
    files[`${relative}/`] = { type: "directory", mode: statSync(join(fixtureDir, relative)).mode & 0o777 };
    for (const name of readdirSync(join(fixtureDir, relative)).sort()) {
      const path = `${relative}/${name}`;
      const stats = statSync(join(fixtureDir, path));
      if (stats.isDirectory()) walk(path);
      else files[path] = { data: readFileSync(join(fixtureDir, path)), mode: stats.mode & 0o777 };
    }
  };
  walk("code");
  return zipFiles(files);
}

const compiled = new Map<string, Promise<string>>();

/**
 * Compiles one C file with gcc (and `gccArgs`) and returns the executable's path. The build is keyed by the
 * source's hash and the arguments in one shared, world-readable temp folder, so every test process (and a scenario
 * run as another user) reuses it and nothing piles up in the temp directory run after run.
 */
export function compileC(source: string, name: string, gccArgs: readonly string[] = []): Promise<string> {
  const key = JSON.stringify([source, ...gccArgs]);
  let build = compiled.get(key);
  if (build === undefined) {
    build = (async () => {
      const hash = createHash("sha256").update(readFileSync(source));
      if (gccArgs.length > 0) hash.update(JSON.stringify(gccArgs));
      const digest = hash.digest("hex").slice(0, 16);
      const dir = join(tmpdir(), `agent-tools-${name}-${digest}`);
      const binary = join(dir, name);
      if (existsSync(binary)) return binary;
      await mkdir(dir, { recursive: true, mode: 0o755 });
      // Compile beside the final name, then rename: concurrent test processes never see a half-written file.
      const partial = `${binary}.${process.pid}.partial`;
      await promisify(execFile)("gcc", ["-O2", ...gccArgs, "-o", partial, source]);
      await rename(partial, binary);
      return binary;
    })();
    compiled.set(key, build);
  }
  return build;
}

/**
 * Compiles `binary-increment/src/increment.c` (see `compileC`) and returns the executable's path,
 * copied into `outDir` when one is given.
 */
export async function compileIncrement(outDir?: string): Promise<string> {
  const binary = await compileC(join(FIXTURE_TOOLS_DIR, "binary-increment/src/increment.c"), "increment");
  if (outDir === undefined) return binary;
  await mkdir(outDir, { recursive: true });
  const copy = join(outDir, "increment");
  await copyFile(binary, copy);
  await chmod(copy, 0o755);
  return copy;
}

/** The increment tool built by `gcc` with `gccArgs` (`["-static"]`, a dynamic linker of musl's, …). */
export function compileIncrementWith(gccArgs: readonly string[]): Promise<string> {
  return compileC(join(FIXTURE_TOOLS_DIR, "binary-increment/src/increment.c"), "increment", gccArgs);
}

/**
 * A real ELF executable for another CPU than this host's: `elf` with its machine field (e_machine)
 * set to AArch64 on an x86-64 host, to x86-64 on any other. The kernel refuses it as it refuses a
 * build for that CPU (ENOEXEC), which is the case a wrong-platform upload creates.
 */
export function forOtherCpu(elf: Uint8Array): Uint8Array {
  const copy = new Uint8Array(elf);
  new DataView(copy.buffer).setUint16(18, process.arch === "x64" ? 183 : 62, true);
  return copy;
}

/** The platform `forOtherCpu` builds for, as spec.json names it. */
export const OTHER_CPU = process.arch === "x64" ? "arm64" : "x64";

/** `tar czf tool.zip code` for the binary tool: `code/` holding only `increment` (mode 0755). */
export async function buildBinaryToolArchive(): Promise<Uint8Array> {
  const binary = readFileSync(await compileIncrement());
  return tarGzFiles({ "code/": { type: "directory" }, "code/increment": { data: binary, mode: 0o755 } });
}

export interface BundleParts {
  /** `spec.json`: an object is serialised; a string is written as is (for "not JSON" cases). */
  spec: Record<string, unknown> | string;
  toolZip: Uint8Array;
  toolMd: string;
  /** More members at the bundle root (or under `folder`), for the "unexpected files" case. */
  extraFiles?: Record<string, ArchiveMember>;
  /** Nest the three files under this folder, as `zip -r bundle.zip text-stats/` would. */
  folder?: string;
}

/** `zip bundle.zip spec.json tool.zip tool.md`: the upload body's `file` field. */
export function buildBundle({ spec, toolZip, toolMd, extraFiles = {}, folder }: BundleParts): Uint8Array {
  const prefix = folder === undefined ? "" : `${folder.replace(/\/+$/, "")}/`;
  const files: Record<string, ArchiveMember> = {
    [`${prefix}spec.json`]: typeof spec === "string" ? spec : JSON.stringify(spec, null, 2),
    [`${prefix}tool.zip`]: toolZip,
    [`${prefix}tool.md`]: toolMd,
  };
  for (const [path, member] of Object.entries(extraFiles)) files[`${prefix}${path}`] = member;
  return zipFiles(files);
}

/** The fixture's `spec.json` as an object. */
export function readFixtureSpec(name: FixtureToolName): Record<string, unknown> {
  return JSON.parse(readFileSync(join(FIXTURE_TOOLS_DIR, name, "spec.json"), "utf8")) as Record<string, unknown>;
}

export interface FixtureBundle {
  bundle: Uint8Array;
  toolZip: Uint8Array;
  spec: Record<string, unknown>;
}

/**
 * A ready-to-upload bundle of an example tool. `spec` fields are merged over the fixture's
 * (shallowly); `version` sets `tool_metadata.version` (other metadata kept).
 */
export async function fixtureBundle(
  name: FixtureToolName,
  overrides: { spec?: Record<string, unknown>; version?: string } = {},
): Promise<FixtureBundle> {
  const base = readFixtureSpec(name);
  const spec: Record<string, unknown> = { ...base, ...overrides.spec };
  if (overrides.version !== undefined) {
    spec.tool_metadata = { ...(spec.tool_metadata as Record<string, unknown> | undefined), version: overrides.version };
  }
  const toolZip = name === "text-stats" ? buildPythonToolZip(join(FIXTURE_TOOLS_DIR, name)) : await buildBinaryToolArchive();
  const toolMd = readFileSync(join(FIXTURE_TOOLS_DIR, name, "tool.md"), "utf8");
  return { bundle: buildBundle({ spec, toolZip, toolMd }), toolZip, spec };
}
