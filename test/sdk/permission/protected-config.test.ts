import { afterAll, describe, expect, it } from "vitest";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { Edit, PermissionEngine, PermissionMode, Toolkit, Write, type ToolBase } from "@agent-tools/sdk";
import { protectedConfigProblem } from "../../../sdk/src/builtin/paths/protected-config.js";
import { loadCorpus, temporaryDirectory } from "../builtin/support.js";

/**
 * Configuration that runs code asks in every mode, BYPASS and ACCEPT_EDITS included, through the
 * real engine and the real Write and Edit tools (nothing is written).
 */
const project = temporaryDirectory("protected-config-");
afterAll(() => project.remove());
mkdirSync(join(project.path, ".git", "hooks"), { recursive: true });
writeFileSync(join(project.path, ".git", "config"), "[core]\n");
symlinkSync(join(project.path, ".git", "config"), join(project.path, "linked-config"));
symlinkSync(join(project.path, ".git", "hooks", "pre-commit"), join(project.path, "linked-hook"));

const paths = loadCorpus("protected-config-writes.txt").map((line) =>
  line.replaceAll("{project}", project.path).replaceAll("{home}", homedir()),
);
const tools: ToolBase<any>[] = [new Write(), new Edit()];
const inputFor = (tool: ToolBase<any>, filePath: string) =>
  tool.name === "Write" ? { file_path: filePath, content: "x" } : { file_path: filePath, old_string: "a", new_string: "b" };
const decide = (tool: ToolBase<any>, filePath: string, options: ConstructorParameters<typeof PermissionEngine>[0] = {}) =>
  new PermissionEngine({ workingDirectories: [project.path], ...options }).checkPermission(tool, inputFor(tool, filePath));

describe("protected configuration", () => {
  it("has a corpus covering the classes", () => {
    expect(paths.length).toBeGreaterThanOrEqual(45);
    expect(new Set(paths).size).toBe(paths.length);
  });

  it.each(paths.map((path) => [path]))("asks for writes to %s in every mode, whatever the allow rules", async (path) => {
    expect(protectedConfigProblem(path), path).toMatch(/protected configuration/);
    for (const tool of tools) {
      for (const mode of [PermissionMode.DEFAULT, PermissionMode.ACCEPT_EDITS, PermissionMode.BYPASS]) {
        const decision = await decide(tool, path, { mode, allow: [tool.name, `${tool.name}(/**)`] });
        expect(decision, `${tool.name} ${mode}`).toMatchObject({
          behavior: "ask",
          alwaysAsk: true,
          bypassImmune: true,
          suggestions: [],
          reason: "Safety check: protected configuration",
        });
      }
      expect((await decide(tool, path, { mode: PermissionMode.DONT_ASK })).behavior).toBe("deny");
      expect((await decide(tool, path, { mode: PermissionMode.EXPLORE })).behavior).toBe("deny");
    }
  });

  it("counts (the docs' figures)", async () => {
    let askedInBypass = 0;
    for (const path of paths) if ((await decide(new Write(), path, { mode: PermissionMode.BYPASS })).behavior === "ask") askedInBypass++;
    console.log(`protected config: ${askedInBypass}/${paths.length} writes ask in BYPASS`);
    expect(askedInBypass).toBe(paths.length);
  });

  it.each([
    "src/index.ts",
    "README.md",
    "package.json",
    ".gitignore",
    ".github/workflows/ci.yml",
    "docs/agent-tools.md",
    "src/git/hooks.ts",
    "test/.gitkeep",
    "agent-tools/settings.json",
    "src/profile.ts",
    "scripts/bashrc.md",
    ".gitattributes",
  ])("leaves everyday writes alone: %s is allowed in ACCEPT_EDITS", async (relative) => {
    const path = join(project.path, relative);
    expect(protectedConfigProblem(path)).toBeUndefined();
    for (const tool of tools) expect((await decide(tool, path, { mode: PermissionMode.ACCEPT_EDITS })).behavior).toBe("allow");
  });

  it("matches home-only entries only below the home directory", () => {
    expect(protectedConfigProblem(join(project.path, ".local", "bin", "tool"))).toBeUndefined();
    expect(protectedConfigProblem(join(homedir(), ".local", "bin", "tool"))).toMatch(/PATH/);
  });

  it("says where a link leads", () => {
    expect(protectedConfigProblem(join(project.path, "linked-config"))).toBe(
      `${join(project.path, "linked-config")} leads to ${join(project.path, ".git", "config")}, protected ` +
        `configuration: git config runs code: core.fsmonitor, core.hooksPath, aliases, filters (git-config(1))`,
    );
  });

  it("reaches the user as a bypass-immune confirmation that no remembered rule silences", async () => {
    const toolkit = new Toolkit({
      tools: [new Write()],
      engine: new PermissionEngine({ mode: PermissionMode.BYPASS, workingDirectories: [project.path] }),
    });
    const executor = toolkit.createExecutor();
    const events = [];
    for await (const event of executor.run([
      { id: "c1", name: "Write", input: { file_path: join(project.path, ".agent-tools", "settings.json"), content: "{}" } },
    ]))
      events.push(event);
    expect(events.at(-1)).toMatchObject({ type: "require_user_confirm" });
    expect(JSON.stringify(events.at(-1))).toMatch(/"bypassImmune":true/);
  });
});
