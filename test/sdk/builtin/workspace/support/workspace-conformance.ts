/**
 * The Workspace conformance suite (docs/workspaces.md#conformance): what every workspace and its
 * backend do, checked the same way for each (local, sandboxed local, Docker, the in-memory test
 * backend), through the `WorkspaceBackend` interface and through the built-in tools made for it.
 * A backend passes it unchanged or not at all: nothing here asks which backend it runs against.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUILTIN_TOOL_NAMES, createBuiltinTools, Toolkit, WorkspaceError, type Workspace } from "@agent-tools/sdk";
import type { WorkspaceBackend } from "@agent-tools/sdk/builtin";
import { runTool } from "../../support.js";

export interface WorkspaceUnderTest {
  name: string;
  /** A workspace working on `projectDirectory` (a host folder holding the suite's files), not initialized yet. */
  create(projectDirectory: string): Workspace;
}

/** The project every run starts from. */
const PROJECT_FILES: Record<string, string> = {
  "notes.txt": "one\ntwo\nthree\n",
  "src/app.ts": "export const answer = 42;\n",
  "src/lib/util.ts": "export function helper() {\n  return 'Answer';\n}\n",
  ".hidden.ts": "// hidden\n",
  ".git/HEAD": "ref: refs/heads/main\n",
  "docs/guide.md": "# Guide\nThe answer is in src.\n",
};

function seededProject(): { path: string; remove: () => void } {
  const path = realpathSync(mkdtempSync(join(tmpdir(), "agent-tools-workspace-")));
  for (const [name, text] of Object.entries(PROJECT_FILES)) {
    mkdirSync(dirname(join(path, name)), { recursive: true });
    writeFileSync(join(path, name), text);
  }
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

/** The WorkspaceError `action` throws (or rejects with); undefined when it succeeds; other errors pass through. */
export async function failure(action: () => unknown): Promise<WorkspaceError | undefined> {
  try {
    await action();
  } catch (error) {
    if (error instanceof WorkspaceError) return error;
    throw error;
  }
  return undefined;
}

export function describeWorkspaceConformance(subject: WorkspaceUnderTest): void {
  describe(`${subject.name}: workspace conformance`, () => {
    describe("lifecycle", () => {
      it("hands out one backend between initialize and close, and none outside", async () => {
        const project = seededProject();
        const workspace = subject.create(project.path);
        try {
          expect((await failure(() => workspace.getBackend()))?.code).toBe("WORKSPACE_NOT_INITIALIZED");
          await Promise.all([workspace.initialize(), workspace.initialize()]);
          const backend = workspace.getBackend();
          await workspace.initialize();
          expect(workspace.getBackend()).toBe(backend);
          expect(backend.cwd).toBe(project.path);
        } finally {
          await workspace.close();
        }
        await workspace.close();
        expect((await failure(() => workspace.getBackend()))?.code).toBe("WORKSPACE_CLOSED");
        expect((await failure(() => workspace.initialize()))?.code).toBe("WORKSPACE_CLOSED");
        project.remove();
      });

      it("refuses a project folder that does not exist, naming it", async () => {
        const missing = join(realpathSync(tmpdir()), "agent-tools-no-such-project");
        const workspace = subject.create(missing);
        const refused = await failure(() => workspace.initialize());
        expect(refused?.code).toBe("WORKSPACE_PROJECT_MISSING");
        expect(refused?.message).toContain(missing);
        await workspace.close();
      });
    });

    describe("backend and tools", () => {
      let project: { path: string; remove: () => void };
      let workspace: Workspace;
      let backend: WorkspaceBackend;
      let toolkit: Toolkit;
      const at = (name: string) => join(project.path, name);
      const call = (name: string, input: Record<string, unknown>) => runTool(toolkit, name, input);
      const exec = (script: string, options: { timeoutMs?: number; signal?: AbortSignal; maxOutputBytes?: number; cwd?: string } = {}) =>
        backend.exec(["bash", "-c", script], { cwd: project.path, timeoutMs: 60_000, ...options });

      beforeAll(async () => {
        project = seededProject();
        workspace = subject.create(project.path);
        await workspace.initialize();
        backend = workspace.getBackend();
        toolkit = new Toolkit({ tools: createBuiltinTools(BUILTIN_TOOL_NAMES, backend.cwd, { backend }) });
      });
      afterAll(async () => {
        await workspace?.close();
        project?.remove();
      });

      it("reads the project's files and writes bytes back exactly, creating folders and truncating", async () => {
        expect((await backend.readFile(at("notes.txt"))).toString("utf8")).toBe("one\ntwo\nthree\n");
        const bytes = Uint8Array.from([0, 1, 2, 250, 255, 10, 13, 0]);
        await backend.writeFile(at("out/deep/data.bin"), bytes);
        expect([...(await backend.readFile(at("out/deep/data.bin")))]).toEqual([...bytes]);
        await backend.writeFile(at("out/deep/data.bin"), "short");
        expect((await backend.readFile(at("out/deep/data.bin"))).toString("utf8")).toBe("short");
      });

      it("stats files and folders, and nothing for a missing path", async () => {
        expect(await backend.stat(at("notes.txt"))).toMatchObject({ size: 14, isFile: true, isDirectory: false });
        expect((await backend.stat(at("notes.txt")))!.mtimeMs).toBeGreaterThan(0);
        expect(await backend.stat(at("src"))).toMatchObject({ isFile: false, isDirectory: true });
        expect(await backend.stat(at("missing.txt"))).toBeUndefined();
        expect(await backend.stat(at("notes.txt/inside"))).toBeUndefined();
      });

      it("globs absolute paths of files, dot files included, ignores honoured", async () => {
        const ignore = ["**/.git/**"];
        const sorted = async (pattern: string) => (await backend.glob(pattern, { cwd: project.path, ignore })).sort();
        expect(await sorted("**/*.ts")).toEqual([at(".hidden.ts"), at("src/app.ts"), at("src/lib/util.ts")]);
        expect(await sorted("{docs,src}/*")).toEqual([at("docs/guide.md"), at("src/app.ts")]);
        expect(await sorted("**/HEAD")).toEqual([]);
        expect(await backend.glob("**/*.ts", { cwd: at("src/lib"), ignore })).toEqual([at("src/lib/util.ts")]);
        expect(await sorted("nothing/**")).toEqual([]);
      });

      it("runs commands in the given folder with their output, status and failures apart", async () => {
        expect(await exec("echo hello")).toMatchObject({ exitCode: 0, stdout: "hello\n", stderr: "", timedOut: false, aborted: false });
        expect(await exec("echo out; echo oops >&2; exit 3")).toMatchObject({ exitCode: 3, stdout: "out\n", stderr: "oops\n" });
        expect((await exec("pwd", { cwd: at("src") })).stdout).toBe(`${at("src")}\n`);
        expect((await exec("cat notes.txt && echo done")).stdout).toBe("one\ntwo\nthree\ndone\n");
        expect((await exec("cat missing.txt && echo not-reached")).stdout).toBe("");
        expect((await exec(`echo ${"x".repeat(100)}`, { maxOutputBytes: 10 })).stdout).toBe("x".repeat(10));
      });

      it("ends a command at its timeout and when aborted", async () => {
        expect(await exec("sleep 30", { timeoutMs: 300 })).toMatchObject({ exitCode: -1, timedOut: true, aborted: false });
        const abort = new AbortController();
        const running = exec("sleep 30", { signal: abort.signal });
        setTimeout(() => abort.abort(), 300);
        expect(await running).toMatchObject({ exitCode: -1, timedOut: false, aborted: true });
      });

      it("shares one filesystem between commands and file operations", async () => {
        await exec("echo from-command > made.txt");
        expect((await backend.readFile(at("made.txt"))).toString("utf8")).toBe("from-command\n");
        await backend.writeFile(at("given.txt"), "from-backend\n");
        expect((await exec("cat given.txt")).stdout).toBe("from-backend\n");
      });

      it("starts background commands whose output reaches their log", async () => {
        const started = await backend.startBackground(["bash", "-c", "echo started; echo late >&2"], { cwd: project.path });
        expect(started.pid).toBeGreaterThan(0);
        let log = "";
        for (let attempt = 0; attempt < 100 && !log.includes("late"); attempt++) {
          await new Promise((resolve) => setTimeout(resolve, 100));
          log = (await backend.readFile(started.logPath)).toString("utf8");
        }
        expect(log).toBe("started\nlate\n");
      });

      it("drives Read, Write and Edit, read-before-write and stale reads included", async () => {
        expect((await call("Read", { file_path: at("notes.txt"), offset: 2 })).text).toBe("     2\ttwo\n     3\tthree");
        await backend.writeFile(at("editing/counter.js"), "let count = 1;\n");
        expect((await call("Write", { file_path: at("editing/counter.js"), content: "x" })).text).toMatch(
          /exists but has not been read yet/,
        );
        expect((await call("Write", { file_path: at("editing/plan.md"), content: "# Plan\n" })).state).toBe("success");
        await call("Read", { file_path: at("editing/counter.js") });
        expect((await call("Edit", { file_path: at("editing/counter.js"), old_string: "1", new_string: "2" })).metadata.diff).toContain(
          "-let count = 1;\n+let count = 2;",
        );
        expect((await backend.readFile(at("editing/counter.js"))).toString("utf8")).toBe("let count = 2;\n");
        await backend.writeFile(at("editing/counter.js"), "changed elsewhere\n");
        expect((await call("Edit", { file_path: at("editing/counter.js"), old_string: "changed", new_string: "x" })).text).toMatch(
          /has been modified since it was last read/,
        );
        expect((await call("Read", { file_path: at("nowhere.txt") })).text).toBe(`Error: File not found: ${at("nowhere.txt")}`);
      });

      it("drives Glob and Grep", async () => {
        expect((await call("Glob", { pattern: "src/**/*.ts" })).text.split("\n").sort()).toEqual([at("src/app.ts"), at("src/lib/util.ts")]);
        expect((await call("Grep", { pattern: "answer" })).text.split("\n").sort()).toEqual([at("docs/guide.md"), at("src/app.ts")]);
        expect((await call("Grep", { pattern: "answer", "-i": true, glob: "*.ts" })).text.split("\n").sort()).toEqual([
          at("src/app.ts"),
          at("src/lib/util.ts"),
        ]);
        expect((await call("Grep", { pattern: "answer", output_mode: "content", path: at("docs") })).text).toBe(
          `${at("docs/guide.md")}:2:The answer is in src.`,
        );
        expect((await call("Grep", { pattern: "e", output_mode: "count", path: at("notes.txt") })).text).toMatch(/(^|:)2$/);
        expect((await call("Grep", { pattern: "zzz-nothing" })).text).toBe("No matches found for pattern: zzz-nothing");
      });

      it("drives Bash: output, failures, and files shared with the file tools", async () => {
        expect((await call("Bash", { command: "echo hello" })).text).toBe("hello\n");
        const failed = await call("Bash", { command: "echo oops >&2; exit 4" });
        expect(failed.state).toBe("error");
        expect(failed.text).toBe("Command failed: echo oops >&2; exit 4\n\nStderr:\noops\n");
        await call("Bash", { command: "echo built > built.txt" });
        expect((await call("Read", { file_path: at("built.txt") })).text).toBe("     1\tbuilt");
        await call("Write", { file_path: at("written.txt"), content: "by Write\n" });
        expect((await call("Bash", { command: "cat written.txt" })).text).toBe("by Write\n");
      });
    });
  });
}
