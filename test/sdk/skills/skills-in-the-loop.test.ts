/**
 * Skills inside the agent loop (docs/skills.md#skills-in-the-loop), through the public API and the
 * real executor and engine: a loaded skill's folder is readable by the file tools in every mode that
 * allows reading and writable in none; a tool group's skills load with the group; and, against a
 * real local registry, SearchTools marks skills and AddTool loads one as a skill, never as a tool.
 */
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  addSearchMetaTools,
  AgentTools,
  Edit,
  FunctionTool,
  Glob,
  Grep,
  PermissionEngine,
  PermissionMode,
  Read,
  registryTool,
  SkillError,
  Toolkit,
  ToolError,
  Write,
  type ToolCall,
  type ToolkitOptions,
} from "@agent-tools/sdk";
import { buildBundle, zipFiles } from "../../support/bundles.js";
import { startTestRegistry, uploadBundle, type TestRegistry } from "../../support/registry.js";
import { echoToolBundle, uploadOrThrow } from "../../functions/search/search-bundles.js";

const FIXTURES = fileURLToPath(new URL("../../fixtures/skills/", import.meta.url));

let scratch: string;
let project: string;
let skills: string;
beforeAll(async () => {
  scratch = realpathSync(await mkdtemp(join(tmpdir(), "agent-tools-skill-loop-")));
  project = join(scratch, "project");
  skills = join(scratch, "installed-skills");
  await mkdir(project);
  await cp(FIXTURES, skills, { recursive: true });
  // A secret inside a skill's folder stays a secret once the folder is readable.
  await writeFile(join(skills, "release-notes", ".env"), "TOKEN=abc\n");
});
afterAll(() => rm(scratch, { recursive: true, force: true }));

/** A toolkit whose project is `project` and whose skills live outside it, as installed or cached skills do. */
function agent(mode: PermissionMode = PermissionMode.DEFAULT, options: Pick<ToolkitOptions, "groups"> = {}) {
  const engine = new PermissionEngine({ mode, workingDirectories: [project] });
  const tools = [
    new Read({ cwd: project }),
    new Write({ cwd: project }),
    new Edit({ cwd: project }),
    new Grep({ cwd: project }),
    new Glob({ cwd: project }),
  ];
  return { engine, toolkit: new Toolkit({ engine, tools, skills: [join(skills, "release-notes")], ...options }) };
}

async function run(toolkit: Toolkit, ...calls: [string, Record<string, unknown>][]) {
  const toolCalls: ToolCall[] = calls.map(([name, input], index) => ({ id: `c${index}`, name, input }));
  return toolkit.createExecutor().runToCompletion(toolCalls);
}

const template = () => join(skills, "release-notes", "templates", "entry.md");

describe("a loaded skill's folder", () => {
  it("is outside the agent's reach until the skill is loaded", async () => {
    const { engine, toolkit } = agent();
    expect((await engine.checkPermission(toolkit.getTool("Read")!, { file_path: template() })).behavior).toBe("ask");
    engine.setMode(PermissionMode.EXPLORE);
    expect((await engine.checkPermission(toolkit.getTool("Read")!, { file_path: template() })).behavior).toBe("deny");
  });

  it.each([PermissionMode.DEFAULT, PermissionMode.ACCEPT_EDITS, PermissionMode.EXPLORE, PermissionMode.DONT_ASK, PermissionMode.BYPASS])(
    "is readable by Read, Grep and Glob once loaded, in %s, and its resources are what the viewer named",
    async (mode) => {
      const { toolkit } = agent(mode);
      const folder = join(skills, "release-notes");
      // One turn loads the skill, the next reads it (calls of one batch are decided together, before any runs).
      const [loaded] = await run(toolkit, ["Skill", { skill: "release-notes" }]);
      const [read, grep, glob] = await run(
        toolkit,
        ["Read", { file_path: template() }],
        ["Grep", { pattern: "Added", path: join(folder, "templates") }],
        ["Glob", { pattern: "**/*.md", path: join(folder, "templates") }],
      );
      expect(loaded?.text).toContain(`Base directory for this skill: ${folder}\nResources:\n- .env\n- templates/entry.md`);
      expect(read?.state).toBe("success");
      expect(read?.text).toContain(`     1\t${(await readFile(template(), "utf8")).split("\n")[0]}`);
      expect(grep?.state).toBe("success");
      expect(glob?.text).toBe(template());
    },
  );

  it.each([PermissionMode.DEFAULT, PermissionMode.ACCEPT_EDITS, PermissionMode.DONT_ASK, PermissionMode.BYPASS])(
    "is never writable by Write or Edit, in %s, even with an allow rule",
    async (mode) => {
      const { engine, toolkit } = agent(mode);
      engine.addRule("Write", "allow");
      engine.addRule("Edit", "allow");
      await run(toolkit, ["Skill", { skill: "release-notes" }]);
      const [write, edit, inProject] = await run(
        toolkit,
        ["Write", { file_path: join(skills, "release-notes", "templates", "new.md"), content: "x" }],
        ["Edit", { file_path: template(), old_string: "Added", new_string: "Removed" }],
        ["Write", { file_path: join(project, `notes-${mode}.md`), content: "mine" }],
      );
      expect(write).toMatchObject({ state: "denied", text: expect.stringContaining("is inside a read-only folder (a loaded skill's") });
      expect(edit?.state).toBe("denied");
      expect(inProject?.state).toBe("success");
      expect(await readFile(template(), "utf8")).not.toContain("Removed");
    },
  );

  it("still asks for a secret in it, and refuses it where nobody can answer", async () => {
    for (const [mode, behavior] of [
      [PermissionMode.DEFAULT, "ask"],
      [PermissionMode.EXPLORE, "deny"],
      [PermissionMode.DONT_ASK, "deny"],
    ] as const) {
      const { engine, toolkit } = agent(mode);
      await run(toolkit, ["Skill", { skill: "release-notes" }]);
      const decision = await engine.checkPermission(toolkit.getTool("Read")!, { file_path: join(skills, "release-notes", ".env") });
      expect(decision.behavior, mode).toBe(behavior);
    }
  });

  it("stays closed for skills the agent did not load", async () => {
    const { engine, toolkit } = agent();
    toolkit.registerSkill(join(skills, "commit-style"));
    await run(toolkit, ["Skill", { skill: "release-notes" }]);
    const other = await engine.checkPermission(toolkit.getTool("Read")!, { file_path: join(skills, "commit-style", "SKILL.md") });
    expect(other.behavior).toBe("ask");
  });
});

describe("skills on a tool group", () => {
  const reviewGroup = (toolName = "review_diff") => ({
    name: "review",
    description: "Review changes.",
    // A tool of the group's own: the Toolkits below hold the built-ins already, and one name is one tool.
    tools: [
      new FunctionTool(() => "no changes", {
        name: toolName,
        description: "Shows the changes under review.",
        inputSchema: { type: "object", properties: {} },
      }),
    ],
    skills: [join(skills, "commit-style")],
  });

  it("are offered by the Skill tool only while their group is active, and named when it activates", async () => {
    const { toolkit } = agent(PermissionMode.DEFAULT, { groups: [reviewGroup()] });
    const viewer = () => toolkit.getTool("Skill")!.description;
    expect(viewer()).toContain("- release-notes:");
    expect(viewer()).not.toContain("commit-style");
    const [hidden] = await run(toolkit, ["Skill", { skill: "commit-style" }]);
    expect(hidden?.text).toBe("SkillNotFoundError: Skill 'commit-style' not found.");

    const [activated, loaded] = await run(toolkit, ["reset_tools", { review: true }], ["Skill", { skill: "commit-style" }]);
    expect(activated?.text).toBe("Activated tool groups: review.\nSkills now available through the Skill tool: commit-style.");
    expect(viewer()).toContain("- commit-style: Write commit messages");
    expect(loaded?.text).toContain(`Base directory for this skill: ${join(skills, "commit-style")}`);

    await run(toolkit, ["reset_tools", { review: false }]);
    expect(viewer()).not.toContain("commit-style");
  });

  it("bring the Skill tool with them when the Toolkit has no skills of its own", async () => {
    const toolkit = new Toolkit({ groups: [{ ...reviewGroup(), active: false }] });
    expect(toolkit.getTool("Skill")).toBeUndefined();
    toolkit.setActiveGroups(["review"]);
    expect(toolkit.getTools().map((tool) => tool.name)).toEqual(["Skill", "reset_tools", "review_diff"]);
  });

  it("load their folders with the group, so a bad SKILL.md or a clash of names fails there", async () => {
    const broken = join(scratch, "broken-skill");
    await mkdir(broken, { recursive: true });
    await writeFile(join(broken, "SKILL.md"), "# no front matter\n");
    expect(() => new Toolkit({ groups: [{ ...reviewGroup(), skills: [broken] }] })).toThrow(SkillError);
    const { toolkit } = agent();
    expect(() => toolkit.addGroup({ ...reviewGroup(), skills: [join(skills, "release-notes")] })).toThrow(
      /a skill named "release-notes" is already offered by this Toolkit or one of its tool groups/,
    );
    expect(toolkit.switchableGroups()).toEqual([]);
    expect(
      () =>
        new Toolkit({
          groups: [reviewGroup(), { ...reviewGroup("second_diff"), name: "second" }],
        }),
    ).toThrow(/skill names must be unique across the Toolkit and its groups/);
  });
});

describe("registry skills in the loop", () => {
  let registry: TestRegistry;
  let cacheDir: string;
  const opened: AgentTools[] = [];

  beforeAll(async () => {
    [registry, cacheDir] = await Promise.all([startTestRegistry(), mkdtemp(join(tmpdir(), "agent-tools-skill-loop-cache-"))]);
    const skillMd = await readFile(join(FIXTURES, "release-notes", "SKILL.md"), "utf8");
    const toolZip = zipFiles({
      "code/SKILL.md": skillMd,
      "code/templates/entry.md": await readFile(join(FIXTURES, "release-notes/templates/entry.md")),
    });
    const spec = {
      tool_id: "notes-skill",
      tool_type: "skill",
      tool_search_description: "Write release notes from merged changes",
      tool_metadata: { version: "1.0.0" },
      tool_api_spec: { entrypoints: { execute: { input: { type: "object", properties: {} } } } },
    };
    expect((await uploadBundle(registry.url, registry.token, buildBundle({ spec, toolZip, toolMd: "# notes\n" }))).status).toBe(200);
    await uploadOrThrow(
      registry.url,
      registry.token,
      echoToolBundle({ tool_id: "notes-counter", tool_search_description: "Count release notes entries" }),
    );
  });
  afterAll(async () => {
    await Promise.all(opened.map((tools) => tools.close()));
    await registry?.close();
    await rm(cacheDir, { recursive: true, force: true });
  });

  function searchingAgent(mode: PermissionMode) {
    const tools = new AgentTools({ toolsDbUrl: registry.url, cacheDir });
    opened.push(tools);
    const engine = new PermissionEngine({ mode, workingDirectories: [project], allow: ["AddTool"] });
    const toolkit = new Toolkit({ engine, tools: [new Read({ cwd: project })] });
    addSearchMetaTools(tools, toolkit);
    return { tools, engine, toolkit };
  }

  it("SearchTools marks a skill as a skill, without the schema a tool has", async () => {
    const { toolkit } = searchingAgent(PermissionMode.DEFAULT);
    const [found] = await run(toolkit, ["SearchTools", { query: "release notes" }]);
    const { tools } = JSON.parse(found!.text) as { tools: Record<string, unknown>[] };
    const byId = Object.fromEntries(tools.map((tool) => [tool.tool_id, tool]));
    expect(byId["notes-skill"]).toEqual({
      tool_id: "notes-skill",
      kind: "skill",
      description: "Write release notes from merged changes",
      tags: [],
    });
    expect(byId["notes-counter"]).toMatchObject({ kind: "tool", input_schema: { type: "object" } });
  });

  it("AddTool of a skill id loads it as a skill: instructions, base directory and resources, then its folder is readable", async () => {
    const { tools, engine, toolkit } = searchingAgent(PermissionMode.DEFAULT);
    const [added] = await run(toolkit, ["AddTool", { tool_id: "notes-skill" }]);
    const directory = tools.getSkill("notes-skill")!.directory!;
    expect(added?.state).toBe("success");
    expect(added?.text).toMatch(/^# Release notes\n/);
    expect(added?.text).toContain(`Base directory for this skill: ${directory}\nResources:\n- templates/entry.md`);
    expect(added?.metadata).toMatchObject({ toolId: "notes-skill", skill: "release-notes", directory });
    // Not a callable tool: only the Skill viewer offers it.
    expect(toolkit.getTools().map((tool) => tool.name)).toEqual(["Skill", "Read", "SearchTools", "AddTool"]);
    expect(toolkit.getTool("Skill")!.description).toContain("- release-notes: Write release notes");
    engine.setMode(PermissionMode.EXPLORE);
    const [resource] = await run(toolkit, ["Read", { file_path: join(directory, "templates", "entry.md") }]);
    expect(resource?.state).toBe("success");
    expect(() => registryTool(tools, "notes-skill")).toThrow(ToolError);
    expect(() => registryTool(tools, "notes-skill")).toThrow(
      /"notes-skill" is a skill \(instructions, nothing to run\), not a callable tool/,
    );
  });

  it("AddTool refuses to load a registry skill whose name another skill of the Toolkit holds", async () => {
    const { toolkit } = searchingAgent(PermissionMode.DEFAULT);
    toolkit.registerSkill(join(skills, "release-notes"));
    const [added] = await run(toolkit, ["AddTool", { tool_id: "notes-skill" }]);
    expect(added).toMatchObject({
      state: "error",
      text:
        '"notes-skill" is a skill named "release-notes", and this Toolkit already offers ' +
        'another skill by that name; "notes-skill" was added to AgentTools but not loaded.',
    });
  });
});
