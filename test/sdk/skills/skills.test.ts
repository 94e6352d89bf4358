/**
 * Skills from folders (test/fixtures/skills) and from the registry: the Skill viewer meta tool's
 * description and answers, its permission, bad SKILL.md files rejected with a clear error (locally
 * and on upload), and `AgentTools.add` of a `tool_type: "skill"` entry registering the skill.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  AgentTools,
  PermissionEngine,
  PermissionMode,
  SkillError,
  ToolResultState,
  Toolkit,
  loadSkills,
  registryTools,
} from "@agent-tools/sdk";
import { SKILL_LIMITS } from "../../../sdk/src/skills/skill-manifest.js";
import type { Skill } from "../../../sdk/src/skills/skill.js";
import { buildBundle, zipFiles } from "../../support/bundles.js";
import { startTestRegistry, uploadBundle, type TestRegistry } from "../../support/registry.js";

const SKILLS_DIR = fileURLToPath(new URL("../../fixtures/skills/", import.meta.url));

async function view(toolkit: Toolkit, skill: unknown) {
  const stream = toolkit.callTool({ id: "s", name: "Skill", input: { skill } });
  for (;;) {
    const step = await stream.next();
    if (step.done) return step.value;
  }
}

let scratch: string;
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), "agent-tools-skills-"));
});
afterAll(() => rm(scratch, { recursive: true, force: true }));

/** A skill folder holding `skillMd` as its SKILL.md. */
async function skillFolder(name: string, skillMd: string | Uint8Array): Promise<string> {
  const dir = join(scratch, name);
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, "SKILL.md"), skillMd);
  return dir;
}

describe("skills from folders", () => {
  it("loads every skill folder in a folder (ignoring folders without SKILL.md) and lists them in the Skill tool", () => {
    const toolkit = new Toolkit({ skills: [SKILLS_DIR] });
    const [first] = toolkit.getTools();
    expect(first?.name).toBe("Skill");
    expect(first?.description).toContain("- commit-style: Write commit messages: a summary line under 72 characters, then why.");
    expect(first?.description).toContain("- release-notes: Write release notes from a list of merged changes.");
    expect(first?.inputSchema).toMatchObject({ required: ["skill"] });
  });

  it("returns a skill's Markdown with its folder and resources, or SkillNotFoundError", async () => {
    const toolkit = new Toolkit({ skills: [join(SKILLS_DIR, "release-notes")] });
    const found = await view(toolkit, "release-notes");
    expect(found.state).toBe(ToolResultState.SUCCESS);
    expect(found.text).toMatch(/^# Release notes\n\n1\. Group the changes/);
    expect(found.text).toContain(`Base directory for this skill: ${join(SKILLS_DIR, "release-notes")}`);
    expect(found.text).toContain("- templates/entry.md");
    expect(found.text).not.toContain("name: release-notes"); // front matter is not repeated

    const missing = await view(toolkit, "commit-style");
    expect(missing.state).toBe(ToolResultState.ERROR);
    expect(missing.text).toBe("SkillNotFoundError: Skill 'commit-style' not found.");
  });

  it("keeps SKILL.md's front matter and parses YAML properly (quoted strings, nested maps)", () => {
    const [notes] = loadSkills(join(SKILLS_DIR, "release-notes"));
    expect(notes?.frontMatter).toEqual({
      name: "release-notes",
      description: expect.stringContaining("changelog"),
      license: "MIT",
      metadata: { owner: "docs-team" },
    });
  });

  it("is read-only and always allowed, EXPLORE and DONT_ASK included", async () => {
    const toolkit = new Toolkit({ skills: [SKILLS_DIR] });
    const viewer = toolkit.getTool("Skill")!;
    for (const mode of [PermissionMode.EXPLORE, PermissionMode.DONT_ASK, PermissionMode.DEFAULT]) {
      expect((await new PermissionEngine({ mode }).checkPermission(viewer, { skill: "x" })).behavior).toBe("allow");
    }
  });

  it("offers no Skill tool without skills, and takes Skill objects, sources and later registrations", async () => {
    const toolkit = new Toolkit();
    expect(toolkit.getTool("Skill")).toBeUndefined();
    const inline: Skill = {
      name: "inline",
      description: "Defined in code.",
      markdown: "Do the thing.",
      directory: undefined,
      resources: [],
      frontMatter: {},
    };
    const dynamic: Skill[] = [];
    toolkit.registerSkill(inline);
    toolkit.registerSkill({ skills: () => dynamic });
    expect((await view(toolkit, "inline")).text).toBe("Do the thing.");
    expect(toolkit.getTool("Skill")!.description).not.toContain("later");
    dynamic.push({ ...inline, name: "later", description: "Appeared later." });
    expect(toolkit.getTool("Skill")!.description).toContain("- later: Appeared later.");
  });
});

describe("bad SKILL.md files are rejected with a clear error", () => {
  const cases: [string, string, string, RegExp][] = [
    ["no-front-matter", "# Just markdown\n", "SKILL_FRONT_MATTER_MISSING", /must start with YAML front matter/],
    ["unclosed", "---\nname: unclosed\ndescription: x\n# body\n", "SKILL_FRONT_MATTER_MISSING", /then a line "---"/],
    ["bad-yaml", "---\nname: bad-yaml\ndescription: [unclosed\n---\nbody\n", "SKILL_FRONT_MATTER_INVALID", /not valid YAML/],
    [
      "duplicate-key",
      "---\nname: duplicate-key\nname: again\ndescription: x\n---\n",
      "SKILL_FRONT_MATTER_INVALID",
      /not valid YAML: .*unique/i,
    ],
    [
      "alias-bomb",
      `---\nname: alias-bomb\ndescription: x\na: &a [x, x, x, x, x, x, x, ` +
        `x]\nb: &b [${"*a, ".repeat(20)}*a]\nc: [${"*b, ".repeat(20)}*b]\n---\n`,
      "SKILL_FRONT_MATTER_INVALID",
      /not valid YAML: .*alias/i,
    ],
    ["list", "---\n- name\n---\n", "SKILL_FRONT_MATTER_INVALID", /must be a YAML mapping/],
    ["no-name", "---\ndescription: x\n---\n", "SKILL_NAME_INVALID", /needs `name: my-skill`/],
    ["upper", "---\nname: My_Skill\ndescription: x\n---\n", "SKILL_NAME_INVALID", /"My_Skill" must be at most 64 lowercase letters/],
    ["no-description", "---\nname: no-description\n---\n", "SKILL_DESCRIPTION_INVALID", /needs `description:`/],
    ["number-description", "---\nname: number-description\ndescription: 42\n---\n", "SKILL_DESCRIPTION_INVALID", /non-empty string/],
    [
      "long-description",
      `---\nname: long-description\ndescription: ${"x".repeat(1025)}\n---\n`,
      "SKILL_DESCRIPTION_INVALID",
      /1025 characters; at most 1024/,
    ],
  ];
  it.each(cases)("%s", async (name, skillMd, code, message) => {
    const dir = await skillFolder(name, skillMd);
    let error: unknown;
    try {
      new Toolkit({ skills: [dir] });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(SkillError);
    expect((error as SkillError).code).toBe(code);
    expect((error as SkillError).message).toMatch(message);
    expect((error as SkillError).message).toContain(join(dir, "SKILL.md"));
  });

  it("rejects a SKILL.md over the size limit, one that is not UTF-8, a folder without SKILL.md and duplicate names", async () => {
    const big = await skillFolder("big", `---\nname: big\ndescription: x\n---\n${"a".repeat(SKILL_LIMITS.maxSkillFileBytes)}`);
    expect(() => loadSkills(big)).toThrow(/at most 262144 are allowed/);
    const latin1 = await skillFolder(
      "latin1",
      Uint8Array.from([...Buffer.from("---\nname: latin1\ndescription: caf"), 0xe9, ...Buffer.from("\n---\n")]),
    );
    expect(() => loadSkills(latin1)).toThrow(/not UTF-8/);
    const empty = join(scratch, "empty");
    await mkdir(empty, { recursive: true });
    expect(() => loadSkills(empty)).toThrow(/neither this folder nor any folder in it holds a SKILL.md/);
    expect(() => loadSkills(join(scratch, "missing"))).toThrow(/no such folder/);
    const twin = await skillFolder("twin", "---\nname: commit-style\ndescription: again\n---\n");
    expect(() => new Toolkit({ skills: [SKILLS_DIR, twin] })).toThrow(/a skill named "commit-style" is already registered/);
  });
});

describe("skills from the registry", () => {
  let registry: TestRegistry;
  let agentTools: AgentTools;
  let cacheDir: string;

  const skillSpec = (toolId: string) => ({
    tool_id: toolId,
    tool_type: "skill",
    tool_search_description: "Release notes skill",
    tool_metadata: { version: "1.0.0" },
    tool_api_spec: { entrypoints: { execute: { input: { type: "object", properties: {} } } } },
  });
  const skillZip = async (skillMd: string) =>
    zipFiles({
      "code/SKILL.md": skillMd,
      "code/templates/entry.md": await readFile(join(SKILLS_DIR, "release-notes/templates/entry.md")),
    });

  beforeAll(async () => {
    registry = await startTestRegistry();
    cacheDir = await mkdtemp(join(tmpdir(), "agent-tools-skill-cache-"));
    agentTools = new AgentTools({ toolsDbUrl: registry.url, cacheDir });
  });
  afterAll(async () => {
    await agentTools?.close();
    await registry?.close();
    await rm(cacheDir, { recursive: true, force: true });
  });

  it("uploads a skill bundle, and AgentTools.add registers the skill instead of starting a runtime", async () => {
    const skillMd = await readFile(join(SKILLS_DIR, "release-notes/SKILL.md"), "utf8");
    const bundle = buildBundle({ spec: skillSpec("release-notes"), toolZip: await skillZip(skillMd), toolMd: "# Release notes skill\n" });
    const uploaded = await uploadBundle(registry.url, registry.token, bundle);
    expect(uploaded).toMatchObject({ status: 200, body: { tool_id: "release-notes", version: "1.0.0" } });

    const added = await agentTools.add("release-notes");
    expect(added.runtime).toBe("skill");
    expect(agentTools.skills().map((skill) => skill.name)).toEqual(["release-notes"]);
    expect(await agentTools.executeToolById("release-notes")).toMatch(/^# Release notes/);
    expect(registryTools(agentTools)).toEqual([]); // a skill is not a callable tool

    const toolkit = new Toolkit({ skills: [agentTools] });
    expect(toolkit.getTool("Skill")?.description).toContain("- release-notes: Write release notes");
    const viewed = await view(toolkit, "release-notes");
    expect(viewed.text).toContain("- templates/entry.md");
    expect(viewed.text).toContain(`Base directory for this skill: `);
  });

  const badUploads: [string, () => Promise<Uint8Array>, number, RegExp][] = [
    ["no SKILL.md", async () => zipFiles({ "code/README.md": "hi" }), 422, /needs code\/SKILL\.md, but the archive holds code\/README\.md/],
    [
      "no front matter",
      () => skillZip("# no front matter\n"),
      422,
      /tool\.zip code\/SKILL\.md: SKILL\.md must start with YAML front matter/,
    ],
    ["bad name", () => skillZip("---\nname: Bad Name\ndescription: x\n---\n"), 422, /skill name "Bad Name" must be/],
    [
      "SKILL.md too large",
      () => skillZip(`---\nname: big\ndescription: x\n---\n${"a".repeat(SKILL_LIMITS.maxSkillFileBytes)}`),
      413,
      /larger than 262144 bytes/,
    ],
  ];
  it.each(badUploads)("refuses a skill bundle with %s, naming the problem", async (_case, toolZip, status, detail) => {
    const bundle = buildBundle({ spec: skillSpec("bad-skill"), toolZip: await toolZip(), toolMd: "# bad\n" });
    const { status: got, body } = await uploadBundle(registry.url, registry.token, bundle);
    expect(got).toBe(status);
    expect(body.error).toBe("Failed to process tool package");
    expect(String(body.detail)).toMatch(detail);
    expect((await fetch(`${registry.url}/tools/bad-skill`)).status).toBe(404);
  });
});
