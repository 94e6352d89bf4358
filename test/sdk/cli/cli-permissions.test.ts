/**
 * `agent-tools permissions trust|untrust|grants|revoke|log` (docs/cli.md#permissions) end to end,
 * and `agent-tools mcp` in a crafted repository whose `.agent-tools/settings.json` asks for
 * `bypassPermissions` and allows Write: the server prints what the file tried and how to trust it,
 * and runs nothing unasked until the user trusts the folder.
 */
import { execFile } from "node:child_process";
import { chown, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { PermissionEngine, loadPermissionSettings } from "@agent-tools/sdk";
import { sinceTime } from "../../../sdk/src/cli/commands/decision-log-command.js";
import { EXIT } from "../../../sdk/src/cli/exit-codes.js";
import { CLI_MAIN, TSX_LOADER } from "../mcp/support.js";
import { ProbeTool } from "../permission/support/probe-tool.js";
import { runCliCaptured } from "../support/captured-cli.js";
import { UNPRIVILEGED_UID } from "../support/tool-run-as-user.js";
import { makeSettingsFolders } from "../permission/support/settings-folders.js";

let root: string;
let home: string;
let project: string;
const savedHome = process.env.HOME;

beforeEach(async () => {
  ({ root, home, project } = await makeSettingsFolders("agent-tools-cli-permissions-", "cloned repo"));
  // The CLI reads the user's settings from the OS home, as users run it.
  process.env.HOME = home;
});
afterEach(async () => {
  process.env.HOME = savedHome;
  await rm(root, { recursive: true, force: true });
});

const userFile = () => join(home, ".agent-tools", "settings.json");
const projectFile = () => join(project, ".agent-tools", "settings.json");
const write = (file: string, value: unknown) => writeFile(file, JSON.stringify(value, null, 2));
const readJson = async (file: string) => JSON.parse(await readFile(file, "utf8")) as Record<string, unknown>;
const cli = (...args: string[]) => runCliCaptured(["permissions", ...args], project);

describe("agent-tools permissions trust, untrust and grants", () => {
  it("lists each file's allow rules, an untrusted folder's as not applied, then applies them once trusted", async () => {
    await write(userFile(), { theme: "dark", permissions: { allow: ["Grep"] } });
    await write(projectFile(), { permissions: { allow: ["Bash(npm test)", "Write"], defaultMode: "bypassPermissions" } });

    const before = await cli("grants", "--json");
    expect(before.status, before.err).toBe(EXIT.ok);
    expect(JSON.parse(before.out)).toEqual({
      grants: [
        { rule: "Grep", layer: "user", file: userFile(), applied: true },
        { rule: "Bash(npm test)", layer: "project", file: projectFile(), applied: false },
        { rule: "Write", layer: "project", file: projectFile(), applied: false },
      ],
      trusted_folders: [],
    });
    const text = await cli("grants");
    expect(text.out).toContain(
      `${projectFile()} (project, not applied: the folder is not trusted (agent-tools permissions trust '${project}'))`,
    );

    const trusted = await cli("trust");
    expect(trusted.status, trusted.err).toBe(EXIT.ok);
    expect(trusted.out).toContain(`Trusted ${project} (sha256:`);
    expect(trusted.out).toContain(`${projectFile()}: defaultMode "bypassPermissions" (raises the mode from default to bypass)`);
    const user = await readJson(userFile());
    expect(user.theme).toBe("dark");
    expect(Object.keys(user.trustedFolders as object)).toEqual([project]);
    expect(loadPermissionSettings({ homeDir: home, projectDir: project }).mode).toBe("bypass");

    const after = JSON.parse((await cli("grants", "--json")).out);
    expect(after.grants.map((grant: { applied: boolean }) => grant.applied)).toEqual([true, true, true]);
    expect(after.trusted_folders).toEqual([
      { folder: project, digest: expect.stringMatching(/^sha256:/), trustedAt: expect.any(String), current: true },
    ]);

    // A change to the project file withdraws the trust until asked again.
    await write(projectFile(), { permissions: { allow: ["Bash"] } });
    expect(JSON.parse((await cli("grants", "--json")).out).trusted_folders[0].current).toBe(false);
    expect(loadPermissionSettings({ homeDir: home, projectDir: project }).allow).toEqual([expect.objectContaining({ toolName: "Grep" })]);

    expect((await cli("untrust")).out).toBe(`${project} is no longer trusted.\n`);
    expect((await cli("untrust")).out).toBe(`${project} was not trusted.\n`);
  });

  it("revokes a rule from the files that hold it, in any spelling, keeping the rest of each file", async () => {
    await write(userFile(), { permissions: { allow: ["Bash(npm run test:*)", "Read"], deny: ["Bash(rm:*)"] }, model: "x" });
    await write(projectFile(), { permissions: { allow: ["Bash(npm run test:*)"] } });
    const onlyUser = await cli("revoke", "Bash(npm run test:*)", "--layer", "user");
    expect(onlyUser).toMatchObject({ status: EXIT.ok, out: `Removed Bash(npm run test:*) from ${userFile()}.\n` });
    expect(await readJson(userFile())).toEqual({ permissions: { allow: ["Read"], deny: ["Bash(rm:*)"] }, model: "x" });
    expect((await readJson(projectFile())).permissions).toEqual({ allow: ["Bash(npm run test:*)"] });

    const everywhere = JSON.parse((await cli("revoke", "Bash(npm run test:*)", "--json")).out);
    expect(everywhere).toEqual({ rule: "Bash(npm run test:*)", removed_from: [projectFile()] });

    const missing = await cli("revoke", "Bash(rm:*)");
    expect(missing.status).toBe(EXIT.failed);
    expect(missing.err).toContain('no allow rule "Bash(rm:*)" in the user, project or local settings');
    const badLayer = await cli("revoke", "Read", "--layer", "system");
    expect(badLayer.status).toBe(EXIT.usage);
    expect(badLayer.err).toContain("--layer must be one of user, project, local");
  });

  it("refuses to edit a user settings file that is not JSON, and leaves it as it was", async () => {
    await writeFile(userFile(), "{ not json");
    const result = await cli("trust");
    expect(result.status).toBe(EXIT.failed);
    expect(result.err).toContain("not a JSON object");
    expect(await readFile(userFile(), "utf8")).toBe("{ not json");
  });
});

describe("agent-tools permissions log", () => {
  it("prints the configured log's decisions and answers, filtered by --since, as text or JSON", async () => {
    const log = join(home, ".agent-tools", "decisions.jsonl");
    await write(userFile(), { permissions: { allow: ["Probe(fine)"], decisionLog: "~/.agent-tools/decisions.jsonl" } });
    const engine = new PermissionEngine(loadPermissionSettings({ homeDir: home, projectDir: project }));
    const probe = new ProbeTool();
    await engine.checkPermission(probe, { target: "fine" });
    await engine.checkPermission(probe, { target: "other", token: "hunter2-secret" });
    engine.recordAnswer(probe, { target: "other" }, { allowed: false, answeredBy: "user" });
    const old = {
      time: "2020-01-01T00:00:00.000Z",
      event: "decision",
      tool: "Probe",
      input_digest: "sha256:0",
      input: {},
      mode: "default",
      outcome: "deny",
    };
    await writeFile(log, `${JSON.stringify(old)}\n${await readFile(log, "utf8")}torn {\n`);

    const all = await cli("log", "--json");
    expect(all.status, all.err).toBe(EXIT.ok);
    expect(all.err).toBe(`agent-tools: 1 line(s) of ${log} are not decision records; skipped.\n`);
    const records = JSON.parse(all.out) as { outcome: string; event: string }[];
    expect(records.map((record) => [record.event, record.outcome])).toEqual([
      ["decision", "deny"],
      ["decision", "allow"],
      ["decision", "ask"],
      ["answer", "deny"],
    ]);
    expect(all.out).not.toContain("hunter2-secret");

    const recent = await cli("log", "--since", "1h");
    const lines = recent.out.trim().split("\n");
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(
      /^\d{4}-\d\d-\d\dT\S+ {2}allow {2}default {2}Probe \{"target":"fine"\} {2}rule Probe\(fine\) \(userSettings, /,
    );
    expect(lines[0]).toContain(userFile());
    expect(lines[2]).toContain("answered deny by user");
    expect((await cli("log", "--since", "2019-12-31", "--file", log, "--json")).out).toContain("2020-01-01");
    expect((await cli("log", "--since", "2021-01-01", "--file", log)).out).not.toContain("2020-01-01");
  });

  it("says how to configure a log when none is, and what --since accepts", async () => {
    const none = await cli("log");
    expect(none.status).toBe(EXIT.usage);
    expect(none.err).toContain('no decision log is configured: add "decisionLog"');
    const bad = await cli("log", "--since", "yesterday", "--file", join(root, "none.jsonl"));
    expect(bad.status).toBe(EXIT.usage);
    expect(bad.err).toContain("--since must be an ISO time");
    expect(sinceTime("90s", 100_000)).toBe(10_000);
    expect(sinceTime("2d", 2 * 86_400_000)).toBe(0);
    const empty = await cli("log", "--file", join(root, "none.jsonl"));
    expect(empty).toMatchObject({ status: EXIT.ok, out: `No decisions in ${join(root, "none.jsonl")}.\n` });
  });
});

describe("agent-tools mcp in a cloned repository that asks for bypassPermissions", () => {
  const savedRoot: { dir?: string } = {};
  beforeAll(async () => {
    savedRoot.dir = await mkdtemp(join(tmpdir(), "agent-tools-cli-permissions-mcp-"));
  });
  afterAll(async () => {
    if (savedRoot.dir) await rm(savedRoot.dir, { recursive: true, force: true });
  });

  /** `agent-tools mcp --builtin Write` in the project, for a client that cannot be asked; calls Write once. */
  async function writeThroughMcp(target: string): Promise<{ result: CallToolResult; stderr: string }> {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ["--import", TSX_LOADER, CLI_MAIN, "mcp", "--builtin", "Write"],
      cwd: project,
      env: { ...(process.env as Record<string, string>), HOME: home },
      stderr: "pipe",
    });
    let stderr = "";
    transport.stderr?.on("data", (data: Buffer) => (stderr += data.toString()));
    const client = new Client({ name: "host", version: "1.0.0" });
    await client.connect(transport);
    try {
      const result = (await client.callTool({ name: "Write", arguments: { file_path: target, content: "planted\n" } })) as CallToolResult;
      return { result, stderr };
    } finally {
      await client.close();
    }
  }

  it("prints what the file tried and how to trust it, runs nothing unasked, and applies it once trusted", async () => {
    await write(projectFile(), { permissions: { defaultMode: "bypassPermissions", allow: ["Write"] } });
    const target = join(savedRoot.dir!, "outside.txt");
    const untrusted = await writeThroughMcp(target);
    expect(untrusted.result.isError).toBe(true);
    expect(untrusted.stderr).toContain(`the settings in ${project} are not trusted`);
    expect(untrusted.stderr).toContain(`${projectFile()}: defaultMode "bypassPermissions" (raises the mode from default to bypass)`);
    expect(untrusted.stderr).toContain(`${projectFile()}: allow rule "Write"`);
    expect(untrusted.stderr).toContain(`run: agent-tools permissions trust '${project}'`);
    expect(untrusted.stderr).toContain("(mode default)");
    await expect(readFile(target, "utf8")).rejects.toThrow(/ENOENT/);

    expect((await cli("trust")).status).toBe(EXIT.ok);
    const trusted = await writeThroughMcp(target);
    expect(trusted.result.isError, JSON.stringify(trusted.result)).not.toBe(true);
    expect(trusted.stderr).not.toContain("are not trusted");
    expect(await readFile(target, "utf8")).toBe("planted\n");
  }, 60_000);
});

describe("agent-tools permissions as an unprivileged user", () => {
  /** The CLI from source as `nobody`, in the project, with `home` as its only HOME. */
  const asNobody = async (...args: string[]) => {
    const { stdout } = await promisify(execFile)(
      "setpriv",
      [
        `--reuid=${UNPRIVILEGED_UID}`,
        `--regid=${UNPRIVILEGED_UID}`,
        "--clear-groups",
        "--",
        process.execPath,
        "--import",
        TSX_LOADER,
        CLI_MAIN,
        "permissions",
        ...args,
      ],
      { cwd: project, env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home }, timeout: 60_000 },
    );
    return stdout;
  };

  it("trusts a folder in that user's own settings, applies it, and withdraws it on a change", async () => {
    await write(projectFile(), { permissions: { allow: ["Write"], defaultMode: "bypassPermissions" } });
    for (const dir of [root, home, join(home, ".agent-tools"), project, join(project, ".agent-tools"), projectFile()])
      await chown(dir, UNPRIVILEGED_UID, UNPRIVILEGED_UID);
    const before = JSON.parse(await asNobody("grants", "--json"));
    expect(before.grants).toEqual([{ rule: "Write", layer: "project", file: projectFile(), applied: false }]);
    expect(await asNobody("trust")).toContain(`Trusted ${project}`);
    expect((await stat(userFile())).uid).toBe(UNPRIVILEGED_UID);
    const after = JSON.parse(await asNobody("grants", "--json"));
    expect(after.grants[0].applied).toBe(true);
    expect(after.trusted_folders).toEqual([expect.objectContaining({ folder: project, current: true })]);
    await writeFile(projectFile(), JSON.stringify({ permissions: { allow: ["Bash"] } }));
    const changed = JSON.parse(await asNobody("grants", "--json"));
    expect(changed.grants).toEqual([{ rule: "Bash", layer: "project", file: projectFile(), applied: false }]);
    expect(changed.trusted_folders[0].current).toBe(false);
  }, 60_000);
});
