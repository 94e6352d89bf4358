import { afterAll, describe, expect, it } from "vitest";
import { execFileSync } from "node:child_process";
import { linkSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { Glob, Grep, PermissionEngine, PermissionMode, Read, type ToolBase } from "@agent-tools/sdk";
import { loadCorpus, temporaryDirectory } from "./support.js";

/**
 * The file tools' confinement, decided by the real PermissionEngine with the real tools over real
 * fixture trees (symlinks, hard links, a git repository), never reading anything. The engine's
 * working directory is a temp project that is not `process.cwd()`.
 */
const root = temporaryDirectory("file-confinement-");
afterAll(() => root.remove());
const hostile = join(root.path, "project");
const outside = join(root.path, "outside");
const clean = join(root.path, "clean");

function put(base: string, path: string, content = "x\n"): void {
  mkdirSync(dirname(join(base, path)), { recursive: true });
  writeFileSync(join(base, path), content);
}

// The hostile project: secrets by name, links to secrets and outside, hard links under neutral names.
for (const path of [
  ".env",
  ".env.local",
  ".env-local",
  ".env.production",
  ".ENV",
  "config/prod.env",
  "infra/terraform.tfvars",
  "infra/prod.auto.tfvars",
  "infra/terraform.tfstate",
  "certs/server.pem",
  "certs/server.key",
  "certs/keystore.jks",
  "credentials.json",
  "config/secrets.yaml",
  "config/service-account.json",
  "client_secret_1234.apps.googleusercontent.com.json",
  ".npmrc",
  ".envrc",
  ".aws/credentials",
  "deploy/id_ed25519",
  "src/index.ts",
  "docs/guide.md",
])
  put(hostile, path, "KEY=value\n");
put(hostile, ".git/config", '[remote "origin"]\n\turl = https://user:token@example.com/r.git\n');
put(outside, "notes.txt", "outside\n");
put(outside, "secret.env", "KEY=outside\n");
symlinkSync(join(hostile, ".env"), join(hostile, "notes.txt"));
symlinkSync("/etc/shadow", join(hostile, "shadow-link"));
symlinkSync("/proc/self/environ", join(hostile, "environ-link"));
symlinkSync(outside, join(hostile, "outside-link"));
symlinkSync("/etc", join(hostile, "docs", "etc-link"));
linkSync(join(hostile, ".env"), join(hostile, "neutral.txt"));
linkSync(join(outside, "secret.env"), join(hostile, "src", "copy.txt"));

// The clean project: an ordinary git repository whose .gitignore hides its .env and build output.
for (const path of [
  "src/index.ts",
  "src/lib/util.ts",
  "src/credentials.ts",
  "src/secrets.py",
  "src/env.ts",
  "src/auth/token-store.ts",
  "README.md",
  "docs/credentials.md",
  "LICENSE",
  "package.json",
  "package-lock.json",
  "tsconfig.json",
  ".editorconfig",
  ".nvmrc",
  ".prettierrc",
  ".eslintrc.json",
  ".env.example",
  ".env.sample",
  ".github/workflows/ci.yml",
  ".vscode/settings.json",
  "Dockerfile",
  "docker-compose.yml",
  "Makefile",
  "Cargo.toml",
  "pyproject.toml",
  "infra/main.tf",
  "infra/variables.tf",
  "test/fixtures/data.json",
  "test/app.test.ts",
  "node_modules/x/index.js",
  "node_modules/x/package.json",
  "node_modules/@scope/pkg/dist/index.d.ts",
  "dist/app.js",
  "dist/app.js.map",
  "build/output.txt",
  "coverage/lcov.info",
])
  put(clean, path, "export const x = 1; // TODO\n");
put(clean, ".gitignore", ".env\nnode_modules/\ndist/\nbuild/\ncoverage/\n");
put(clean, ".env", "KEY=value\n");
execFileSync("git", ["init", "-q", clean]);

const substitutions: Record<string, string> = { "{home}": homedir(), "{outside}": outside, "{other}": "/home/alice-fixture-user" };
function calls(corpus: string, project: string): { line: string; tool: string; input: Record<string, unknown> }[] {
  return loadCorpus(corpus).map((line) => {
    const space = line.indexOf(" ");
    let json = line.slice(space + 1).replaceAll("{project}", project);
    for (const [placeholder, value] of Object.entries(substitutions)) json = json.replaceAll(placeholder, value);
    return { line, tool: line.slice(0, space), input: JSON.parse(json) as Record<string, unknown> };
  });
}
const escapes = calls("file-tool-escapes.txt", hostile);
const everyday = calls("file-tool-everyday.txt", clean);

/** Two set-ups: the engine names the project and the tools keep their defaults, or the tools are given the project as cwd. */
const setups = {
  engine: (project: string) => ({ engine: { workingDirectories: [project] }, tools: toolsWith({}) }),
  tool: (project: string) => ({ engine: {}, tools: toolsWith({ cwd: project }) }),
};
function toolsWith(options: { cwd?: string }): Record<string, ToolBase<any>> {
  return { Read: new Read(options), Grep: new Grep(options), Glob: new Glob(options) };
}

async function decide(
  setup: keyof typeof setups,
  project: string,
  mode: PermissionMode,
  call: { tool: string; input: Record<string, unknown> },
) {
  const { engine, tools } = setups[setup](project);
  return new PermissionEngine({ mode, ...engine }).checkPermission(tools[call.tool]!, call.input);
}

describe("file-tool escapes", () => {
  it("covers every category with enough cases", () => {
    expect(escapes.length).toBeGreaterThanOrEqual(100);
    expect(new Set(escapes.map((call) => call.line)).size).toBe(escapes.length);
    expect(new Set(escapes.map((call) => call.tool))).toEqual(new Set(["Read", "Grep", "Glob"]));
  });

  for (const setup of Object.keys(setups) as (keyof typeof setups)[]) {
    it.each(escapes.map((call) => [call.line, call]))(`never auto-allows %s (project given to the ${setup})`, async (_, call) => {
      const explore = await decide(setup, hostile, PermissionMode.EXPLORE, call);
      expect(explore.behavior, explore.message).toBe("deny");
      const fallback = await decide(setup, hostile, PermissionMode.DEFAULT, call);
      expect(fallback.behavior, fallback.message).toBe("ask");
      const acceptEdits = await decide(setup, hostile, PermissionMode.ACCEPT_EDITS, call);
      expect(acceptEdits.behavior, acceptEdits.message).toBe("ask");
    });
  }
});

describe("everyday reads", () => {
  it.each(everyday.map((call) => [call.line, call]))("auto-allows %s in DEFAULT and EXPLORE", async (_, call) => {
    for (const setup of Object.keys(setups) as (keyof typeof setups)[]) {
      for (const mode of [PermissionMode.DEFAULT, PermissionMode.EXPLORE]) {
        const decision = await decide(setup, clean, mode, call);
        expect(decision.behavior, `${setup} ${mode}: ${decision.message}`).toBe("allow");
      }
    }
  });

  it("totals (the docs' figures)", async () => {
    let escaped = 0;
    let allowed = 0;
    for (const call of escapes) if ((await decide("engine", hostile, PermissionMode.DEFAULT, call)).behavior === "allow") escaped++;
    for (const call of everyday) if ((await decide("engine", clean, PermissionMode.DEFAULT, call)).behavior === "allow") allowed++;
    console.log(
      `file-tool corpus: ${escaped}/${escapes.length} escapes auto-allowed, ${allowed}/${everyday.length} everyday reads auto-allowed`,
    );
    expect([escaped, allowed]).toEqual([0, everyday.length]);
  });
});

describe("what the decisions say", () => {
  const read = new Read();
  const engine = new PermissionEngine({ workingDirectories: [hostile] });

  it("a secret inside the project is a bypass-immune ASK that an allow rule does not silence", async () => {
    const decision = await new PermissionEngine({ workingDirectories: [hostile], allow: ["Read"] }).checkPermission(read, {
      file_path: join(hostile, ".env"),
    });
    expect(decision).toMatchObject({ behavior: "ask", bypassImmune: true, reason: "Safety check: sensitive file" });
    expect(decision.message).toMatch(/a secret by its name/);
  });

  it("a file outside the project is left to rules and the mode: an allow rule or BYPASS allows it", async () => {
    const notes = { file_path: join(outside, "notes.txt") };
    expect((await engine.checkPermission(read, notes)).behavior).toBe("ask");
    expect(
      (await new PermissionEngine({ workingDirectories: [hostile], allow: [`Read(/${outside}/**)`] }).checkPermission(read, notes))
        .behavior,
    ).toBe("allow");
    expect(
      (await new PermissionEngine({ workingDirectories: [hostile], mode: PermissionMode.BYPASS }).checkPermission(read, notes)).behavior,
    ).toBe("allow");
    expect(
      (await new PermissionEngine({ workingDirectories: [hostile], mode: PermissionMode.DONT_ASK }).checkPermission(read, notes)).behavior,
    ).toBe("deny");
  });

  it("names the hard link and the link target", async () => {
    expect((await engine.checkPermission(read, { file_path: join(hostile, "neutral.txt") })).message).toMatch(/hard links/);
    expect((await engine.checkPermission(read, { file_path: join(hostile, "notes.txt") })).message).toMatch(/the real path is .*\.env/);
    expect((await engine.checkPermission(new Grep(), { pattern: "KEY", path: hostile })).message).toMatch(/would read/);
  });

  it("process.cwd() is a working directory only when none is configured", async () => {
    const inRepository = { file_path: join(process.cwd(), "package.json") };
    expect((await new PermissionEngine().checkPermission(read, inRepository)).behavior).toBe("allow");
    expect((await engine.checkPermission(read, inRepository)).behavior).toBe("ask");
    expect((await new PermissionEngine().checkPermission(new Read({ cwd: clean }), inRepository)).behavior).toBe("ask");
  });
});
