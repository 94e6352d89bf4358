import { execFileSync, spawnSync } from "node:child_process";
import { chmod, chown, mkdir, readdir, rm, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AgentTools } from "@agent-tools/sdk";
import { findBeneath, readFileBeneath, ToolFileError } from "../../sdk/src/tool-files.js";
import { zipFiles } from "../support/bundles.js";
import { toolWithExecute } from "./support/python-tool-folder.js";
import { TempDirs } from "./support/temp-dirs.js";

/**
 * Every host-side read the SDK does in a tool's folder goes through `tool-files.ts`: a real tree
 * on disk with links planted in it, and unpacked trees changed after extraction, must never lead a
 * read (or an error message) to a file outside the folder.
 */
const temp = new TempDirs();
const SCENARIO = fileURLToPath(new URL("./support/host-read-scenario.ts", import.meta.url));
const REPO_ROOT = fileURLToPath(new URL("../../", import.meta.url));
const UNPRIVILEGED = 65534;
const SECRET = "host-secret-canary-91d2";
let dir: string;
let secretFile: string;

beforeAll(async () => {
  dir = await temp.make();
  secretFile = join(dir, "outside", "credentials");
  await mkdir(join(dir, "outside"), { recursive: true });
  await writeFile(secretFile, `{"not json because": "${SECRET}`);
});

afterAll(() => temp.removeAll());

function refusal(run: () => unknown): ToolFileError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ToolFileError);
    expect((error as ToolFileError).code).toBe("TOOL_FILE_UNSAFE");
    expect((error as Error).message).not.toContain(SECRET);
    return error as ToolFileError;
  }
  throw new Error("expected a ToolFileError, nothing was thrown");
}

describe("readFileBeneath", () => {
  let root: string;

  beforeAll(async () => {
    root = join(dir, "tree", "code");
    await mkdir(join(root, "lib"), { recursive: true });
    await writeFile(join(root, "lib", "real.txt"), "inside");
    await symlink("lib/real.txt", join(root, "benign"));
    await symlink("lib", join(root, "libs"));
    await symlink(secretFile, join(root, "absolute"));
    await symlink("../../outside/credentials", join(root, "relative"));
    await symlink("../../outside", join(root, "folder"));
    await symlink("lib/..", join(root, "self"));
    await symlink("missing.txt", join(root, "dangling"));
    await symlink(join(dir, "outside", "missing"), join(root, "dangling-outside"));
    await writeFile(join(root, "big.txt"), "x".repeat(2048));
    execFileSync("mkfifo", [join(root, "pipe")]);
    await symlink(root, join(dir, "root-link"));
  });

  it("reads regular files and links that stay inside; a missing file or a dangling link is undefined", () => {
    expect(readFileBeneath(root, "lib/real.txt", 100)?.toString()).toBe("inside");
    expect(readFileBeneath(root, "benign", 100)?.toString()).toBe("inside");
    expect(readFileBeneath(root, "libs/real.txt", 100)?.toString()).toBe("inside");
    expect(readFileBeneath(root, "self/lib/real.txt", 100)?.toString()).toBe("inside");
    expect(readFileBeneath(join(dir, "root-link"), "benign", 100)?.toString()).toBe("inside");
    expect(readFileBeneath(root, "nothing.txt", 100)).toBeUndefined();
    expect(readFileBeneath(root, "dangling", 100)).toBeUndefined();
    expect(readFileBeneath(root, "dangling-outside", 100)).toBeUndefined();
    expect(readFileBeneath(join(dir, "no-such-root"), "x", 100)).toBeUndefined();
  });

  it.each([
    ["an absolute link", "absolute"],
    ["a relative link climbing out", "relative"],
    ["a folder link on the way", "folder/credentials"],
  ])("refuses %s, naming the path and where it leads, without reading it", (_case, relative) => {
    const error = refusal(() => readFileBeneath(root, relative, 1000, { toolId: "planted" }));
    expect(error.message).toContain(
      `Tool "planted": the SDK did not read ${join(root, relative)}: it leads to ${secretFile}, outside ${root}`,
    );
    expect(error.toolId).toBe("planted");
  });

  it("refuses a FIFO at once (it never waits for a writer), a folder, and a file over the size asked", () => {
    expect(refusal(() => readFileBeneath(root, "pipe", 100)).message).toContain("it is a FIFO, not a regular file");
    expect(refusal(() => readFileBeneath(root, "lib", 100)).message).toContain("it is a folder");
    expect(refusal(() => readFileBeneath(root, "big.txt", 1000)).message).toContain("it is 2048 bytes, more than the 1000 read here");
    expect(findBeneath(root, "pipe")?.kind).toBe("other");
    expect(() => findBeneath(root, "folder")).toThrow(ToolFileError);
  });
});

describe("the SDK's own reads in a tool folder", () => {
  it("a local tool's spec.json linked to a secret is refused, and the secret never shows in the error", async () => {
    const folder = join(dir, "spec-link");
    await mkdir(join(folder, "code"), { recursive: true });
    await writeFile(join(folder, "code", "function.py"), toolWithExecute("return 'ran'"));
    await symlink(secretFile, join(folder, "spec.json"));
    const tools = new AgentTools({ cacheDir: join(dir, "cache"), sandbox: "off" });
    try {
      const error = await tools.add({ path: folder }).catch((caught: unknown) => caught);
      expect((error as ToolFileError).code).toBe("TOOL_FILE_UNSAFE");
      expect((error as Error).message).not.toContain(SECRET);
    } finally {
      await tools.close();
    }
  });

  it("an unpacked tree changed after extraction cannot lead requirements.txt or SKILL.md outside it", async () => {
    const folder = join(dir, "changed-tree");
    await mkdir(join(folder, "skill"), { recursive: true });
    const python = join(folder, "python.zip");
    const skill = join(folder, "skill", "tool.zip");
    await writeFile(python, zipFiles({ "code/function.py": toolWithExecute("return 'ran'") }));
    await writeFile(skill, zipFiles({ "code/SKILL.md": "---\nname: tidy\ndescription: Tidies.\n---\nTidy up.\n" }));
    await writeFile(join(folder, "skill", "spec.json"), JSON.stringify({ tool_id: "tidy", tool_type: "skill" }));
    const sources = [{ path: python, toolId: "changed" }, { path: skill }];
    const cacheDir = join(dir, "changed-cache");
    const first = new AgentTools({ cacheDir, sandbox: "off" });
    try {
      for (const source of sources) await first.add(source);
      expect(await first.executeToolById("changed", {})).toBe("ran");
    } finally {
      await first.close();
    }
    // Someone with access to the cache swaps files of the unpacked trees for links to a secret.
    for (const tree of await readdir(join(cacheDir, "trees"))) {
      const code = join(cacheDir, "trees", tree, "code");
      const name = (await readdir(code)).includes("SKILL.md") ? "SKILL.md" : "requirements.txt";
      await rm(join(code, name), { force: true });
      await symlink(secretFile, join(code, name));
    }
    const again = new AgentTools({ cacheDir, sandbox: "off" });
    try {
      for (const source of sources) {
        const error = await again.add(source).catch((caught: unknown) => caught);
        expect((error as ToolFileError).code, source.path).toBe("TOOL_FILE_UNSAFE");
        expect((error as Error).message).toContain(`it leads to ${secretFile}`);
        expect((error as Error).message).not.toContain(SECRET);
      }
    } finally {
      await again.close();
    }
  });

  it("a binary tool's executable linked outside code/ is refused before anything runs", async () => {
    const folder = join(dir, "binary-link");
    await mkdir(join(folder, "code"), { recursive: true });
    await writeFile(join(folder, "spec.json"), JSON.stringify({ tool_id: "binary-link", tool_runtime_type: "binary" }));
    await symlink("/bin/sh", join(folder, "code", "run"));
    const tools = new AgentTools({ cacheDir: join(dir, "cache"), sandbox: "off" });
    try {
      await expect(tools.add({ path: folder })).rejects.toMatchObject({ code: "TOOL_FILE_UNSAFE" });
    } finally {
      await tools.close();
    }
  });
});

describe("as root and as an unprivileged user", () => {
  it.each([
    ["the agent's own user (root in CI)", undefined],
    ["an unprivileged user", process.getuid?.() === 0 ? UNPRIVILEGED : undefined],
  ])("as %s, links to a private secret, to a readable outside file, a FIFO and a benign link", async (_who, uid) => {
    const base = await temp.make("host-read-");
    const privateDir = join(base, "private");
    const tree = join(base, "tree");
    await mkdir(privateDir);
    await mkdir(join(tree, "lib"), { recursive: true });
    await writeFile(join(privateDir, "secret"), SECRET, { mode: 0o600 });
    await chmod(privateDir, 0o700);
    await writeFile(join(base, "readable"), SECRET, { mode: 0o644 });
    await writeFile(join(tree, "lib", "real.txt"), "inside");
    await symlink("lib/real.txt", join(tree, "benign"));
    await symlink(join(privateDir, "secret"), join(tree, "private"));
    await symlink("../readable", join(tree, "readable"));
    await symlink("loop", join(tree, "loop"));
    execFileSync("mkfifo", [join(tree, "pipe")]);
    if (uid !== undefined) {
      await chmod(base, 0o755);
      for (const path of [tree, join(tree, "lib"), join(tree, "lib", "real.txt"), join(tree, "pipe")]) await chown(path, uid, uid);
    }
    const prefix = uid === undefined ? [] : ["/usr/bin/setpriv", `--reuid=${uid}`, `--regid=${uid}`, "--clear-groups"];
    const argv = [...prefix, process.execPath, "--import", "tsx", SCENARIO, tree, "benign", "private", "readable", "loop", "pipe"];
    const env = uid === undefined ? process.env : { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: base };
    const run = spawnSync(argv[0]!, argv.slice(1), { cwd: REPO_ROOT, env, encoding: "utf8", timeout: 30_000 });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).not.toContain(SECRET);
    const outcomes = JSON.parse(run.stdout) as Record<string, string>;
    expect(outcomes.benign).toBe("read:inside");
    expect(outcomes.readable).toContain(`it leads to ${join(base, "readable")}, outside ${tree}`);
    // Root resolves the private file and finds it outside; another user cannot even resolve it.
    expect(outcomes.private).toMatch(uid === undefined ? /it leads to .*private\/secret, outside/ : /cannot be resolved \(EACCES\)/);
    expect(outcomes.loop).toMatch(/^refused:.*cannot be resolved \(ELOOP\)/);
    expect(outcomes.pipe).toMatch(/^refused:.*it is a FIFO/);
  });
});
