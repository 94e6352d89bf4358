import { afterAll, describe, expect, it } from "vitest";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { Edit, Glob, Grep, PermissionEngine, PermissionMode, Read, type PermissionEngineOptions, type ToolBase } from "@agent-tools/sdk";
import { isPathInWorkingDirectories, ruleBaseDirectory } from "../../../sdk/src/permission/working-directories.js";
import { temporaryDirectory } from "../builtin/support.js";

/**
 * Relative rule paths resolve against the project root (the settings file's project, or the
 * engine's first working directory), never against process.cwd(), which is always elsewhere here;
 * and one `Read(...)` rule governs Read, Grep and Glob.
 */
const root = temporaryDirectory("rule-paths-");
afterAll(() => root.remove());
const project = join(root.path, "project");
const outside = join(root.path, "outside");
const put = (path: string, content = "x\n") => {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
};
for (const path of ["src/index.ts", "src/lib/a.ts", "docs/guide.md", "config/.env", "package.json"]) put(join(project, path));
put(join(project, ".env"), "KEY=value\n");
put(join(outside, "sub", "notes.txt"));
put(join(outside, "other.txt"));

const read = new Read();
const grep = new Grep();
const glob = new Glob();
const decide = (tool: ToolBase<any>, input: Record<string, unknown>, options: PermissionEngineOptions = {}) =>
  new PermissionEngine({ workingDirectories: [project], ...options }).checkPermission(tool, input);

describe("relative rule paths", () => {
  it("resolve against the engine's first working directory, not process.cwd()", async () => {
    expect(process.cwd()).not.toBe(project);
    for (const rule of ["Read(./.env)", "Read(**/.env)", "Read(.env)", `Read(/${project}/.env)`]) {
      expect((await decide(read, { file_path: join(project, ".env") }, { deny: [rule] })).behavior, rule).toBe("deny");
    }
    expect((await decide(read, { file_path: join(project, "config", ".env") }, { deny: ["Read(**/.env)"] })).behavior).toBe("deny");
    // The same rule does not reach the process's own directory.
    expect((await decide(read, { file_path: join(process.cwd(), "package.json") }, { deny: ["Read(./package.json)"] })).reason).not.toMatch(
      /^Rule/,
    );
    expect((await decide(read, { file_path: join(project, "package.json") }, { deny: ["Read(./package.json)"] })).behavior).toBe("deny");
  });

  it("resolve against an explicit project root before the working directories", async () => {
    const options = { projectRoot: project, workingDirectories: [outside, project], deny: ["Read(./src/**)"] };
    expect((await decide(read, { file_path: join(project, "src", "index.ts") }, options)).behavior).toBe("deny");
    expect(ruleBaseDirectory({ workingDirectories: [outside], projectRoot: undefined })).toBe(outside);
    expect(ruleBaseDirectory({ workingDirectories: [] }, project)).toBe(project);
    expect(ruleBaseDirectory(undefined)).toBe(process.cwd());
  });

  it("resolve against the settings file's project", () => {
    const home = join(root.path, "home");
    put(
      join(project, ".agent-tools", "settings.json"),
      JSON.stringify({ permissions: { deny: ["Read(./docs/**)"], additionalDirectories: ["../outside"] } }),
    );
    // A trusted folder: its additional directory applies (an untrusted one's would wait, project-trust.test.ts).
    const engine = PermissionEngine.fromSettings({ projectDir: project, homeDir: home, trustProjectSettings: true });
    expect(engine.context.projectRoot).toBe(project);
    expect(engine.context.workingDirectories).toEqual([outside]);
    return expect(engine.checkPermission(read, { file_path: join(project, "docs", "guide.md") })).resolves.toMatchObject({
      behavior: "deny",
    });
  });

  it("suggest rules relative to the project root", async () => {
    const decision = await decide(new Edit(), { file_path: join(project, "src", "lib", "a.ts"), old_string: "a", new_string: "b" });
    expect(decision.suggestions[0]?.ruleContent).toBe("src/lib/**");
    expect((await decide(read, { file_path: join(outside, "other.txt") })).suggestions[0]?.ruleContent).toBe(`${outside}/**`);
  });
});

describe("process.cwd() as a working directory", () => {
  it("counts only when none is configured", () => {
    const inside = join(process.cwd(), "package.json");
    expect(isPathInWorkingDirectories(inside, [])).toBe(true);
    expect(isPathInWorkingDirectories(inside, [project])).toBe(false);
    expect(isPathInWorkingDirectories(join(project, "src"), [project])).toBe(true);
  });
});

describe("one Read rule for every read tool", () => {
  it("deny rules reach Grep and Glob by root, and Grep by any file its walk would read", async () => {
    const deny = { deny: ["Read(./.env)"] };
    expect((await decide(grep, { pattern: "KEY", path: project }, deny)).behavior).toBe("deny");
    expect((await decide(grep, { pattern: "KEY", path: join(project, ".env") }, deny)).behavior).toBe("deny");
    expect((await decide(grep, { pattern: "KEY", path: join(project, "src") }, deny)).behavior).toBe("allow");
    expect((await decide(grep, { pattern: "x", path: project }, { deny: ["Read(src/lib/**)"] })).behavior).toBe("deny");
    // With a glob, only matching files are read: neither src/lib nor .env is.
    expect((await decide(grep, { pattern: "x", path: project, glob: "*.md" }, { deny: ["Read(src/lib/**)"] })).behavior).toBe("allow");
    expect((await decide(glob, { pattern: "**/*", path: join(project, "src") }, { deny: ["Read(src/**)"] })).behavior).toBe("deny");
    // Glob lists names and reads no contents: a rule on a file below its root does not stop it.
    expect((await decide(glob, { pattern: "**/*", path: project }, deny)).behavior).toBe("allow");
    expect((await decide(read, { file_path: join(project, ".env") }, { deny: ["Grep(./.env)"] })).behavior).toBe("ask");
  });

  it("ask rules reach them in every mode but DONT_ASK, BYPASS included", async () => {
    for (const mode of [PermissionMode.DEFAULT, PermissionMode.BYPASS, PermissionMode.ACCEPT_EDITS, PermissionMode.EXPLORE]) {
      expect((await decide(grep, { pattern: "x", path: join(project, "docs") }, { mode, ask: ["Read(docs/**)"] })).behavior, mode).toBe(
        "ask",
      );
    }
    expect(
      (await decide(glob, { pattern: "*", path: join(project, "docs") }, { mode: PermissionMode.DONT_ASK, ask: ["Read(docs/**)"] }))
        .behavior,
    ).toBe("deny");
  });

  it("allow rules cover a search only where it starts, never by its pattern", async () => {
    const allow = { allow: [`Read(/${outside}/sub/**)`] };
    expect((await decide(grep, { pattern: "x", path: join(outside, "sub") }, allow)).behavior).toBe("allow");
    expect((await decide(glob, { pattern: "*", path: join(outside, "sub") }, allow)).behavior).toBe("allow");
    expect((await decide(grep, { pattern: "sub/x", path: outside }, allow)).behavior).toBe("ask");
    expect((await decide(glob, { pattern: "sub/*", path: outside }, allow)).behavior).toBe("ask");
    expect((await decide(glob, { pattern: "../**", path: join(outside, "sub") }, allow)).behavior).toBe("ask");
    expect((await decide(read, { file_path: join(outside, "sub", "notes.txt") }, allow)).behavior).toBe("allow");
  });
});
