import { rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PermissionEngine, PermissionSettingsError, loadPermissionSettings } from "@agent-tools/sdk";
import { ProbeTool } from "./support/probe-tool.js";
import { makeSettingsFolders } from "./support/settings-folders.js";

let root: string;
let home: string;
let project: string;

beforeEach(async () => {
  ({ root, home, project } = await makeSettingsFolders("agent-tools-settings-", "project"));
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const userFile = () => join(home, ".agent-tools", "settings.json");
const projectFile = () => join(project, ".agent-tools", "settings.json");
const localFile = () => join(project, ".agent-tools", "settings.local.json");
const write = (file: string, value: unknown) => writeFile(file, typeof value === "string" ? value : JSON.stringify(value));
/** A folder the program vouches for: its files apply whole (untrusted folders: project-trust.test.ts). */
const locations = () => ({ homeDir: home, projectDir: project, trustProjectSettings: true });

describe("layered permission settings", () => {
  it("combines rules from every layer, tags their source, and takes the mode from the most specific layer", async () => {
    await write(userFile(), { permissions: { allow: ["Probe(a)"], defaultMode: "explore", additionalDirectories: ["~/shared"] } });
    await write(projectFile(), { permissions: { deny: ["Probe(b)"], defaultMode: "acceptEdits", additionalDirectories: ["../lib"] } });
    await write(localFile(), { permissions: { ask: ["Probe(c)"] } });
    const settings = loadPermissionSettings({ ...locations(), code: { allow: ["Other"] } });
    expect(settings.issues).toEqual([]);
    expect(settings.filesRead).toEqual([userFile(), projectFile(), localFile()]);
    expect(settings.mode).toBe("accept_edits");
    expect(settings.modeFrom).toBe("project");
    expect(settings.workingDirectories).toEqual([join(home, "shared"), join(root, "lib")]);
    expect(settings.allow).toEqual([
      { toolName: "Probe", ruleContent: "a", behavior: "allow", source: "userSettings" },
      { toolName: "Other", behavior: "allow", source: "session" },
    ]);
    expect(settings.deny).toEqual([{ toolName: "Probe", ruleContent: "b", behavior: "deny", source: "projectSettings" }]);
    expect(settings.ask).toEqual([{ toolName: "Probe", ruleContent: "c", behavior: "ask", source: "localSettings" }]);
  });

  it("code beats local beats project beats user for the mode", async () => {
    await write(userFile(), { permissions: { defaultMode: "bypass" } });
    expect(loadPermissionSettings(locations()).mode).toBe("bypass");
    await write(projectFile(), { permissions: { defaultMode: "explore" } });
    expect(loadPermissionSettings(locations()).mode).toBe("explore");
    await write(localFile(), { permissions: { defaultMode: "dontAsk" } });
    expect(loadPermissionSettings(locations()).mode).toBe("dont_ask");
    expect(loadPermissionSettings({ ...locations(), code: { mode: "default" } }).modeFrom).toBe("code");
  });

  it("a deny rule in any layer beats an allow rule in a more specific one, and ask beats allow", async () => {
    await write(userFile(), { permissions: { deny: ["Probe(secret)"], ask: ["Probe(maybe)"] } });
    await write(localFile(), { permissions: { allow: ["Probe"] } });
    const engine = PermissionEngine.fromSettings(locations());
    const tool = new ProbeTool();
    expect((await engine.checkPermission(tool, { target: "secret" })).behavior).toBe("deny");
    expect((await engine.checkPermission(tool, { target: "maybe" })).behavior).toBe("ask");
    expect((await engine.checkPermission(tool, { target: "other" })).behavior).toBe("allow");
  });

  it("works with no settings files at all", () => {
    const settings = loadPermissionSettings({ homeDir: join(root, "nobody"), projectDir: join(root, "nowhere") });
    expect(settings).toMatchObject({ mode: "default", modeFrom: "default", allow: [], issues: [], filesRead: [] });
  });

  it("reports every invalid rule with its file and the rule, and still loads the valid ones", async () => {
    await write(projectFile(), { permissions: { allow: ["Probe(ok)", "Bash(git push:*", 42], deny: ["Read(./.env)"] } });
    await write(localFile(), { permissions: { ask: ["(nothing)"], defaultMode: "yolo" } });
    const settings = loadPermissionSettings({ ...locations(), code: { deny: ["Bash(rm"] } });
    expect(settings.allow.map((rule) => rule.ruleContent)).toEqual(["ok"]);
    expect(settings.deny).toHaveLength(1);
    expect(settings.issues.map(({ file, rule }) => ({ file, rule }))).toEqual([
      { file: projectFile(), rule: "Bash(git push:*" },
      { file: projectFile(), rule: "42" },
      { file: localFile(), rule: "(nothing)" },
      { file: localFile(), rule: undefined },
      { file: "code", rule: "Bash(rm" },
    ]);
    expect(settings.issues[0]!.message).toBe(
      `Invalid permission rule "Bash(git push:*" in ${projectFile()}: the content must end with an unescaped ` +
        `")". Write rules as "Tool" or "Tool(content)", escaping literal parentheses in the content as \\( and \\).`,
    );
    expect(settings.issues[3]!.message).toMatch(/"permissions.defaultMode" "yolo" is not a mode; use one of default, accept_edits/);
  });

  it("reports broken JSON and wrongly shaped fields", async () => {
    await write(userFile(), "{ not json");
    await write(projectFile(), { permissions: { allow: "Read", additionalDirectories: [1] } });
    await write(localFile(), ["Read"]);
    const issues = loadPermissionSettings(locations()).issues;
    expect(issues.map((issue) => [issue.file, issue.message.split(":")[0]])).toEqual([
      [userFile(), "not valid JSON"],
      [projectFile(), '"permissions.allow" must be an array of rule strings'],
      [projectFile(), '"permissions.additionalDirectories" must be an array of paths'],
      [localFile(), 'the file must hold a JSON object like {"permissions"'],
    ]);
  });

  it("PermissionEngine.fromSettings refuses settings with issues, listing each", async () => {
    await write(projectFile(), { permissions: { deny: ["Bash(git push:*"] } });
    let caught: unknown;
    try {
      PermissionEngine.fromSettings(locations());
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(PermissionSettingsError);
    expect((caught as PermissionSettingsError).issues).toHaveLength(1);
    expect((caught as Error).message).toContain(`- ${projectFile()}: Invalid permission rule "Bash(git push:*"`);
  });
});
