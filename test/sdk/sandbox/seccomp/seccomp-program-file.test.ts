// seccompProgramFile: the program in this user's private temp folder, and refused when that folder
// could be another user's (docs/sandbox.md#system-call-filter). As root in this process, and as an
// unprivileged user in a process of its own.
import { execFile } from "node:child_process";
import { existsSync, readFileSync, statSync } from "node:fs";
import { chmod, chown, mkdir, readdir, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SeccompFilterError, seccompProgram, seccompProgramFile } from "../../../../sdk/src/sandbox/seccomp/index.js";
import { privateTempFolder } from "../../../../sdk/src/sandbox/private-temp-folder.js";
import { TempDirs } from "../../support/temp-dirs.js";

const SCENARIO = join(import.meta.dirname, "../../support/seccomp-file-scenario.ts");
const NOBODY = ["--reuid=65534", "--regid=65534", "--clear-groups", "--"];
const uid = process.getuid!();
const temp = new TempDirs();
const previousTmpdir = process.env.TMPDIR;

beforeAll(async () => {
  // Before this file's first call, so the once-per-process file lands in a folder of this test.
  process.env.TMPDIR = await temp.make("agent-tools-seccomp-tmp-");
  // The unprivileged user's temp folders are made inside it: it must be able to pass through.
  await chmod(process.env.TMPDIR, 0o755);
});

afterAll(async () => {
  if (previousTmpdir === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = previousTmpdir;
  await temp.removeAll();
});

/** `TMPDIR` set to a fresh folder for the duration of `body`. */
async function inTmpdir<T>(body: (tmpdir: string) => Promise<T> | T): Promise<T> {
  const tmpdir = await temp.make("agent-tools-seccomp-tmp-");
  const before = process.env.TMPDIR;
  process.env.TMPDIR = tmpdir;
  try {
    return await body(tmpdir);
  } finally {
    process.env.TMPDIR = before;
  }
}

describe("seccompProgramFile", () => {
  it("writes the program, read-only, into <tmpdir>/agent-tools-<uid>/, a folder of mode 0700, named by its digest", () => {
    const path = seccompProgramFile();
    const folder = join(process.env.TMPDIR!, `agent-tools-${uid}`);
    expect(path).toMatch(new RegExp(`^${folder}/seccomp-[0-9a-f]{32}\\.bpf$`));
    expect(readFileSync(path).equals(seccompProgram())).toBe(true);
    const folderInfo = statSync(folder);
    expect(folderInfo.mode & 0o777).toBe(0o700);
    expect(folderInfo.uid).toBe(uid);
    expect(statSync(path).mode & 0o777).toBe(0o400);
  });

  it("reuses the file within a process, and gives each program its own", () => {
    const path = seccompProgramFile();
    const inode = statSync(path).ino;
    expect(seccompProgramFile()).toBe(path);
    expect(statSync(path).ino).toBe(inode);
    const unix = seccompProgramFile({ allowUnixSockets: true });
    expect(unix).not.toBe(path);
    expect(readFileSync(unix).equals(seccompProgram({ allowUnixSockets: true }))).toBe(true);
  });
});

describe("the private temp folder", () => {
  const refusals: { shape: string; plant: (folder: string, tmpdir: string) => Promise<void>; problem: RegExp }[] = [
    {
      shape: "a link to a folder of this user",
      plant: async (folder, tmpdir) => {
        await mkdir(join(tmpdir, "elsewhere"), { mode: 0o700 });
        await symlink(join(tmpdir, "elsewhere"), folder);
      },
      problem: /is a symbolic link/,
    },
    { shape: "a file", plant: (folder) => writeFile(folder, ""), problem: /is not a folder/ },
    {
      shape: "a folder others may enter (0755)",
      plant: async (folder) => {
        await mkdir(folder);
        await chmod(folder, 0o755);
      },
      problem: /has mode 0755, not 0700/,
    },
    {
      shape: "a folder of another user",
      plant: async (folder) => {
        await mkdir(folder, { mode: 0o700 });
        await chown(folder, 65534, 65534);
      },
      problem: /belongs to uid 65534/,
    },
  ];

  it.each(refusals)("is refused when <tmpdir>/agent-tools-<uid> exists as $shape, naming the fix", async ({ plant, problem }) => {
    await inTmpdir(async (tmpdir) => {
      const folder = join(tmpdir, `agent-tools-${uid}`);
      await plant(folder, tmpdir);
      let error: unknown;
      try {
        privateTempFolder();
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(SeccompFilterError);
      const refused = error as SeccompFilterError;
      expect(refused.code).toBe("SANDBOX_FILTER_UNAVAILABLE");
      expect(refused.reason).toMatch(problem);
      expect(refused.message).toContain(folder);
      expect(refused.fix).toContain(`remove ${folder}`);
      expect(refused.fix).toContain("TMPDIR");
      if (existsSync(join(tmpdir, "elsewhere"))) expect(await readdir(join(tmpdir, "elsewhere"))).toEqual([]);
    });
  });
});

describe("a temp folder that is missing", () => {
  it("is refused with the fix", async () => {
    await inTmpdir(async (tmpdir) => {
      process.env.TMPDIR = join(tmpdir, "missing");
      expect(() => privateTempFolder()).toThrow(
        /missing\/agent-tools-\d+ cannot be created \(ENOENT.*To fix: set TMPDIR to a folder that exists/,
      );
    });
  });
});

describe("as an unprivileged user", () => {
  /** The scenario process's answer, run as nobody with this TMPDIR. */
  async function asNobody(tmpdir: string): Promise<{ path?: string; code?: string; message?: string }> {
    const { stdout } = await promisify(execFile)("setpriv", [...NOBODY, process.execPath, "--import", "tsx", SCENARIO], {
      env: { PATH: process.env.PATH, TMPDIR: tmpdir },
    });
    return JSON.parse(stdout) as { path?: string; code?: string; message?: string };
  }

  /** A temp folder every user may create in, as /tmp is (sticky, 1777). */
  async function sharedTmpdir(): Promise<string> {
    const tmpdir = await temp.make("agent-tools-seccomp-shared-");
    await chmod(tmpdir, 0o1777);
    return tmpdir;
  }

  it("gets a folder of its own, and the same program", async () => {
    const tmpdir = await sharedTmpdir();
    const { path } = await asNobody(tmpdir);
    expect(path).toMatch(new RegExp(`^${tmpdir}/agent-tools-65534/seccomp-[0-9a-f]{32}\\.bpf$`));
    const folder = statSync(join(tmpdir, "agent-tools-65534"));
    expect([folder.uid, folder.mode & 0o777]).toEqual([65534, 0o700]);
    expect(readFileSync(path!).equals(seccompProgram())).toBe(true);
  });

  it("replaces a file that does not hold the program (a crash mid-write), and refuses a folder another user planted", async () => {
    const tmpdir = await sharedTmpdir();
    const { path } = await asNobody(tmpdir);
    await writeFile(path!, "truncated");
    expect((await asNobody(tmpdir)).path).toBe(path);
    expect(readFileSync(path!).equals(seccompProgram())).toBe(true);

    const planted = await sharedTmpdir();
    await mkdir(join(planted, "agent-tools-65534"), { mode: 0o700 });
    const refused = await asNobody(planted);
    expect(refused.code).toBe("SANDBOX_FILTER_UNAVAILABLE");
    expect(refused.message).toContain(`${planted}/agent-tools-65534 belongs to uid 0, not to this user (uid 65534)`);
  });
});
