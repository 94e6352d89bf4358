import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdirSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Glob, Grep, PermissionEngine, PermissionMode, Toolkit } from "@agent-tools/sdk";
import { runTool, temporaryDirectory } from "./support.js";

const project = temporaryDirectory("builtin-search-");
const file = (name: string) => join(project.path, name);
afterAll(() => project.remove());

beforeAll(() => {
  for (const directory of ["src/lib", "docs", ".git", "node_modules/pkg"]) mkdirSync(file(directory), { recursive: true });
  const files: Record<string, string> = {
    "src/a.ts": "export const Alpha = 1;\n// TODO: beta\n",
    "src/lib/b.tsx": "const beta = 2;\nconst gamma = 3;\n",
    "src/c.js": "let alpha = 'x';\n",
    "docs/readme.md": "Alpha docs\nsecond line\nthird line\n",
    ".git/HEAD": "alpha in git\n",
    ".hidden.ts": "const alpha = 0;\n",
    ".gitignore": "ignored.log\n",
    "ignored.log": "alpha ignored\n",
  };
  let time = Date.parse("2024-01-01T00:00:00Z") / 1000;
  for (const [name, content] of Object.entries(files)) {
    writeFileSync(file(name), content);
    utimesSync(file(name), time, time);
    time += 60;
  }
  utimesSync(file("src/a.ts"), time + 60, time + 60);
});

const toolkit = new Toolkit({ tools: [new Glob({ cwd: project.path }), new Grep({ cwd: project.path })] });
const call = (name: string, input: Record<string, unknown>) => runTool(toolkit, name, input);

describe("Glob", () => {
  it("matches ** and braces, newest first, skipping .git", async () => {
    const response = await call("Glob", { pattern: "**/*.{ts,tsx}" });
    expect(response.text.split("\n")).toEqual([file("src/a.ts"), file(".hidden.ts"), file("src/lib/b.tsx")]);
  });

  it("searches under path, accepts absolute patterns inside it, and reports no match", async () => {
    expect((await call("Glob", { pattern: "*.md", path: file("docs") })).text).toBe(file("docs/readme.md"));
    expect((await call("Glob", { pattern: `${project.path}/src/*.js` })).text).toBe(file("src/c.js"));
    expect((await call("Glob", { pattern: "**/*.py" })).text).toBe("No files found matching pattern: **/*.py");
    expect((await call("Glob", { pattern: "**/HEAD" })).text).toBe("No files found matching pattern: **/HEAD");
  });

  it("gives a clear error for a missing directory", async () => {
    const response = await call("Glob", { pattern: "*", path: file("nope") });
    expect(response.state).toBe("error");
    expect(response.text).toBe(`Directory not found: ${file("nope")}`);
  });
});

describe("Grep (real ripgrep)", () => {
  it("lists matching files by default, honouring .gitignore and skipping .git, including hidden files", async () => {
    const response = await call("Grep", { pattern: "alpha", "-i": true });
    expect(response.text.split("\n")).toEqual([file(".hidden.ts"), file("docs/readme.md"), file("src/a.ts"), file("src/c.js")]);
  });

  it("shows content with line numbers and context, counts, and filters by glob and type", async () => {
    expect((await call("Grep", { pattern: "second", output_mode: "content", "-B": 1, path: file("docs") })).text).toBe(
      `${file("docs/readme.md")}-1-Alpha docs\n${file("docs/readme.md")}:2:second line`,
    );
    expect((await call("Grep", { pattern: "const", output_mode: "count", glob: "*.tsx" })).text).toBe(`${file("src/lib/b.tsx")}:2`);
    expect((await call("Grep", { pattern: "alpha", type: "js" })).text).toBe(file("src/c.js"));
  });

  it("paginates with head_limit and offset", async () => {
    const response = await call("Grep", { pattern: "line", output_mode: "content", head_limit: 1, offset: 1 });
    expect(response.text).toBe(`${file("docs/readme.md")}:3:third line\n\n[Showing results with pagination = limit: 1, offset: 1]`);
  });

  it("supports multiline patterns and patterns starting with a dash", async () => {
    expect((await call("Grep", { pattern: "2;\\nconst gamma", multiline: true })).text).toBe(file("src/lib/b.tsx"));
    expect((await call("Grep", { pattern: "-x-" })).text).toBe("No matches found for pattern: -x-");
  });

  it("explains an invalid regular expression", async () => {
    const response = await call("Grep", { pattern: "foo(" });
    expect(response.state).toBe("error");
    expect(response.text).toMatch(/^Error: invalid regular expression "foo\(" \(ripgrep uses Rust regex syntax/);
  });

  it("reports a missing path", async () => {
    expect((await call("Grep", { pattern: "x", path: file("missing") })).text).toBe(`Error: path not found: ${file("missing")}`);
  });
});

describe("search tool permissions", () => {
  const grep = new Grep({ cwd: project.path });
  it("are read-only everywhere, but a deny rule on a path wins", async () => {
    expect((await new PermissionEngine({ mode: PermissionMode.EXPLORE }).checkPermission(grep, { pattern: "x" })).behavior).toBe("allow");
    expect(
      (await new PermissionEngine({ deny: ["Grep(docs/**)"] }).checkPermission(grep, { pattern: "x", path: file("docs") })).behavior,
    ).toBe("deny");
    expect(
      (await new PermissionEngine({ deny: ["Grep(docs/**)"] }).checkPermission(grep, { pattern: "x", path: file("src") })).behavior,
    ).toBe("allow");
  });
});
