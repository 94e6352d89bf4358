import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { mkdirSync, readFileSync, symlinkSync, truncateSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  AgentState,
  createBuiltinTools,
  Edit,
  PermissionEngine,
  PermissionMode,
  Read,
  Toolkit,
  ToolResponse,
  Write,
  type ToolBase,
  type ToolChunk,
} from "@agent-tools/sdk";
import { ReadCache } from "@agent-tools/sdk/builtin";
import { runTool, temporaryDirectory } from "./support.js";

const project = temporaryDirectory("builtin-files-");
afterAll(() => project.remove());
const file = (name: string) => join(project.path, name);

let toolkit: Toolkit;
beforeEach(() => {
  toolkit = new Toolkit({
    tools: [new Read({ cwd: project.path }), new Write({ cwd: project.path }), new Edit({ cwd: project.path })],
    state: new AgentState(),
  });
});
const call = (name: string, input: Record<string, unknown>) => runTool(toolkit, name, input);

describe("Read", () => {
  it("returns numbered lines with offset and limit, cutting long lines", async () => {
    writeFileSync(file("lines.txt"), `one\r\ntwo\nthree\n${"x".repeat(2005)}\n`);
    expect((await call("Read", { file_path: file("lines.txt") })).text).toBe(
      `     1\tone\n     2\ttwo\n     3\tthree\n     4\t${"x".repeat(2000)}[truncated]`,
    );
    expect((await call("Read", { file_path: file("lines.txt"), offset: 2, limit: 1 })).text).toBe("     2\ttwo");
    expect((await call("Read", { file_path: file("lines.txt"), offset: 10 })).text).toBe("");
  });

  it.each([
    ["a relative path", "lines.txt", "Error: file_path must be an absolute path, got: lines.txt"],
    ["a missing file", "/nonexistent/file.txt", "Error: File not found: /nonexistent/file.txt"],
  ])("gives a clear error for %s", async (_, filePath, message) => {
    const response = await call("Read", { file_path: filePath });
    expect(response.state).toBe("error");
    expect(response.text).toBe(message);
  });

  it("gives clear errors for directories, binary and non-UTF-8 files", async () => {
    mkdirSync(file("folder"), { recursive: true });
    writeFileSync(file("binary.bin"), Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x00, 0x01]));
    writeFileSync(file("latin1.txt"), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
    expect((await call("Read", { file_path: file("folder") })).text).toMatch(/is a directory, not a file/);
    expect((await call("Read", { file_path: file("binary.bin") })).text).toMatch(/is a binary file/);
    expect((await call("Read", { file_path: file("latin1.txt") })).text).toMatch(/is not valid UTF-8 text/);
  });

  it("refuses files too large to read whole", async () => {
    writeFileSync(file("huge.log"), "");
    truncateSync(file("huge.log"), 26 * 1024 * 1024);
    const response = await call("Read", { file_path: file("huge.log") });
    expect(response.state).toBe("error");
    expect(response.text).toMatch(/is too large \(27262976 bytes, limit 26214400\)\. Use Grep to search it/);
  });

  it("returns images as data blocks", async () => {
    const png = Buffer.from("89504e470d0a1a0a0000000d49484452", "hex");
    writeFileSync(file("pixel.png"), png);
    const response = await call("Read", { file_path: file("pixel.png") });
    expect(response.content[0]).toMatchObject({
      type: "data",
      source: { type: "base64", mediaType: "image/png", data: png.toString("base64") },
    });
  });
});

describe("read-before-write", () => {
  it("refuses to overwrite an unread file, then writes after a Read and lets Write and Edit follow each other", async () => {
    writeFileSync(file("cycle.txt"), "alpha\nbeta\n");
    const refused = await call("Write", { file_path: file("cycle.txt"), content: "new\n" });
    expect(refused.text).toBe(
      `Error: File ${file("cycle.txt")} exists but has not been read yet. You must read the file first before writing to it.`,
    );
    expect((await call("Edit", { file_path: file("cycle.txt"), old_string: "alpha", new_string: "gamma" })).text).toBe(
      "Error: To edit a file, you must first read it using the Read tool.",
    );

    await call("Read", { file_path: file("cycle.txt") });
    const edited = await call("Edit", { file_path: file("cycle.txt"), old_string: "alpha", new_string: "gamma" });
    expect(edited.text).toBe(`Successfully replaced 1 occurrence in ${file("cycle.txt")}`);
    expect(edited.metadata.diff).toContain("-alpha\n+gamma");
    // Edit → Edit without another Read: the ledger was refreshed with the new content.
    expect((await call("Edit", { file_path: file("cycle.txt"), old_string: "beta", new_string: "delta" })).state).toBe("success");
    // Edit → Write → Edit.
    expect((await call("Write", { file_path: file("cycle.txt"), content: "one\ntwo\n" })).text).toBe(
      `The file ${file("cycle.txt")} has been written successfully (3 lines).`,
    );
    expect((await call("Edit", { file_path: file("cycle.txt"), old_string: "two", new_string: "three" })).state).toBe("success");
    expect(readFileSync(file("cycle.txt"), "utf8")).toBe("one\nthree\n");
  });

  it("refuses a stale read even when the mtime did not change, and works again after a new Read", async () => {
    writeFileSync(file("stale.txt"), "original\n");
    await call("Read", { file_path: file("stale.txt") });
    const before = new Date("2024-01-01T00:00:00Z");
    utimesSync(file("stale.txt"), before, before);
    await call("Read", { file_path: file("stale.txt") });
    writeFileSync(file("stale.txt"), "changed!\n");
    utimesSync(file("stale.txt"), before, before);
    const refused = await call("Edit", { file_path: file("stale.txt"), old_string: "changed", new_string: "edited" });
    expect(refused.text).toBe(
      `Error: File ${file("stale.txt")} has been modified since it was last ` +
        `read (by the user or another process). Read it again before you edit it.`,
    );
    await call("Read", { file_path: file("stale.txt") });
    expect((await call("Edit", { file_path: file("stale.txt"), old_string: "changed", new_string: "edited" })).state).toBe("success");
    expect(readFileSync(file("stale.txt"), "utf8")).toBe("edited!\n");
  });

  it("holds for direct invoke() calls without an agent state: a tool's own ledger, or one shared on purpose", async () => {
    writeFileSync(file("direct.txt"), "first\n");
    const text = async (tool: ToolBase<any>, input: Record<string, unknown>) => {
      const chunks: ToolChunk[] = [];
      for await (const chunk of tool.invoke(input)) chunks.push(chunk);
      return ToolResponse.fromChunks("c", chunks).text;
    };
    const alone = { write: new Write({ cwd: project.path }), edit: new Edit({ cwd: project.path }), read: new Read({ cwd: project.path }) };
    expect(await text(alone.write, { file_path: file("direct.txt"), content: "x" })).toMatch(/exists but has not been read yet/);
    expect(await text(alone.edit, { file_path: file("direct.txt"), old_string: "first", new_string: "x" })).toMatch(/must first read it/);
    // Another tool's Read is not this Write's: separate ledgers never vouch for each other.
    await text(alone.read, { file_path: file("direct.txt") });
    expect(await text(alone.write, { file_path: file("direct.txt"), content: "x" })).toMatch(/exists but has not been read yet/);

    const readCache = new ReadCache();
    const read = new Read({ cwd: project.path, readCache });
    const edit = new Edit({ cwd: project.path, readCache });
    await text(read, { file_path: file("direct.txt") });
    expect(await text(edit, { file_path: file("direct.txt"), old_string: "first", new_string: "second" })).toMatch(
      /^Successfully replaced/,
    );
    writeFileSync(file("direct.txt"), "changed elsewhere\n");
    expect(await text(edit, { file_path: file("direct.txt"), old_string: "changed", new_string: "x" })).toMatch(/has been modified since/);

    // createBuiltinTools shares one ledger among the file tools it makes.
    const [builtRead, builtWrite] = createBuiltinTools(["Read", "Write"], project.path);
    expect(await text(builtWrite!, { file_path: file("direct.txt"), content: "y" })).toMatch(/exists but has not been read yet/);
    await text(builtRead!, { file_path: file("direct.txt") });
    expect(await text(builtWrite!, { file_path: file("direct.txt"), content: "y" })).toMatch(/has been written successfully/);
    expect(readFileSync(file("direct.txt"), "utf8")).toBe("y");
  });

  it("creates new files (and parent directories) without a Read", async () => {
    const response = await call("Write", { file_path: file("new/dir/created.txt"), content: "hello\n" });
    expect(response.state).toBe("success");
    expect(response.metadata.diff).toBe(`--- /dev/null\n+++ b/${file("new/dir/created.txt")}\n@@ -0,0 +1,1 @@\n+hello\n`);
    expect(readFileSync(file("new/dir/created.txt"), "utf8")).toBe("hello\n");
  });
});

describe("Edit", () => {
  beforeEach(async () => {
    writeFileSync(file("edit.txt"), "alpha alpha2\nalpha\n");
    await call("Read", { file_path: file("edit.txt") });
  });

  it("requires a unique old_string unless replace_all", async () => {
    expect((await call("Edit", { file_path: file("edit.txt"), old_string: "alpha", new_string: "x" })).text).toBe(
      `Error: old_string appears 3 times in ${file("edit.txt")}. Set ` +
        `replace_all=true to replace all occurrences, or make old_string more specific.`,
    );
    const all = await call("Edit", { file_path: file("edit.txt"), old_string: "alpha", new_string: "$&", replace_all: true });
    expect(all.text).toBe(`Successfully replaced all 3 occurrences in ${file("edit.txt")}`);
    expect(readFileSync(file("edit.txt"), "utf8")).toBe("$& $&2\n$&\n");
  });

  it("reports missing and identical strings", async () => {
    expect((await call("Edit", { file_path: file("edit.txt"), old_string: "nope", new_string: "x" })).text).toBe(
      `Error: old_string not found in ${file("edit.txt")}`,
    );
    expect((await call("Edit", { file_path: file("edit.txt"), old_string: "a", new_string: "a" })).text).toBe(
      "Error: old_string and new_string are identical. No changes to make.",
    );
  });

  it("keeps CRLF line endings when the model sends LF", async () => {
    writeFileSync(file("crlf.txt"), "one\r\ntwo\r\n");
    await call("Read", { file_path: file("crlf.txt") });
    expect((await call("Edit", { file_path: file("crlf.txt"), old_string: "one\ntwo", new_string: "uno\ndos" })).state).toBe("success");
    expect(readFileSync(file("crlf.txt"), "utf8")).toBe("uno\r\ndos\r\n");
  });
});

describe("file tool permissions", () => {
  mkdirSync(join(project.path, ".git"), { recursive: true });
  writeFileSync(join(project.path, ".git", "config"), "[core]\n");
  symlinkSync(join(project.path, ".git", "config"), join(project.path, "notes.txt"));
  const write = new Write({ cwd: project.path });
  const edit = new Edit({ cwd: project.path });
  const read = new Read({ cwd: project.path });

  it("asks (bypass-immune) for a symlink to .git/config, judged by real path, even with an allow rule", async () => {
    const engine = new PermissionEngine({ mode: PermissionMode.ACCEPT_EDITS, allow: ["Write(*.txt)", "Edit"] });
    expect(await engine.checkPermission(write, { file_path: join(project.path, "notes.txt"), content: "x" })).toMatchObject({
      behavior: "ask",
      bypassImmune: true,
    });
    expect(
      await engine.checkPermission(edit, { file_path: join(project.path, "notes.txt"), old_string: "a", new_string: "b" }),
    ).toMatchObject({ behavior: "ask", bypassImmune: true });
    expect((await engine.checkPermission(write, { file_path: join(project.path, "ok.txt"), content: "x" })).behavior).toBe("allow");
  });

  it("allows edits inside the working directory in ACCEPT_EDITS only", async () => {
    const inside = { file_path: join(project.path, "src", "main.ts"), content: "x" };
    expect((await new PermissionEngine({ mode: PermissionMode.ACCEPT_EDITS }).checkPermission(write, inside)).behavior).toBe("allow");
    expect((await new PermissionEngine({ mode: PermissionMode.DEFAULT }).checkPermission(write, inside)).behavior).toBe("ask");
    expect(
      (
        await new PermissionEngine({ mode: PermissionMode.ACCEPT_EDITS }).checkPermission(write, {
          file_path: "/elsewhere/x.ts",
          content: "x",
        })
      ).behavior,
    ).toBe("ask");
  });

  it("matches path rules gitignore-style, relative to the cwd or absolute, on real paths too", async () => {
    const target = { file_path: join(project.path, "src", "deep", "main.ts"), content: "x" };
    expect((await new PermissionEngine({ allow: ["Write(src/**)"] }).checkPermission(write, target)).behavior).toBe("allow");
    expect((await new PermissionEngine({ allow: ["Write(*.ts)"] }).checkPermission(write, target)).behavior).toBe("allow");
    expect((await new PermissionEngine({ allow: [`Write(/${project.path}/src/**)`] }).checkPermission(write, target)).behavior).toBe(
      "allow",
    );
    expect((await new PermissionEngine({ allow: ["Write(lib/**)"] }).checkPermission(write, target)).behavior).toBe("ask");
    expect(
      (await new PermissionEngine({ deny: ["Read(.env)"] }).checkPermission(read, { file_path: join(project.path, "config", ".env") }))
        .behavior,
    ).toBe("deny");
    expect(
      (await new PermissionEngine({ deny: ["Read(./.git/**)"] }).checkPermission(read, { file_path: join(project.path, "notes.txt") }))
        .behavior,
    ).toBe("deny");
    // A file outside the working directories asks (it used to be auto-allowed as read-only).
    expect((await new PermissionEngine().checkPermission(read, { file_path: "/etc/hosts" })).behavior).toBe("ask");
  });

  it("suggests a rule for the parent directory, relative to the cwd when inside it", async () => {
    const decision = await new PermissionEngine().checkPermission(edit, {
      file_path: join(project.path, "src", "main.ts"),
      old_string: "a",
      new_string: "b",
    });
    expect(decision.suggestions).toEqual([{ toolName: "Edit", ruleContent: "src/**", behavior: "allow", source: "suggested" }]);
    const outside = await new PermissionEngine().checkPermission(edit, { file_path: "/opt/app/main.ts", old_string: "a", new_string: "b" });
    expect(outside.suggestions[0]?.ruleContent).toBe("/opt/app/**");
  });
});
