import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { Bash, PermissionEngine, Toolkit } from "../../../../sdk/src/index.js";

/**
 * Secrets hidden and the environment scrubbed, run for real through `Bash.call` in the sandbox
 * (docs/sandbox.md#the-bash-tool). Shared by the test itself (as whoever runs it, root in CI) and a
 * child it starts as an unprivileged user (`setpriv`): `node --import tsx this-file <root>` prints
 * the results as JSON. Every secret holds `CANARY-…`, every file that must stay readable
 * `VISIBLE-…`; the commands only read.
 */

/** Files of the fake home and project, relative to `<root>/home` or `<root>/project`. */
export const HOME_SECRETS = [".aws/credentials", ".ssh/id_ed25519", ".netrc", ".config/gh/hosts.yml", ".docker/config.json", "server.pem"];
export const PROJECT_SECRETS = [".env", "config/.env.production", "certs/tls.key", "deep/a/b/c/.env.local"];
export const VISIBLE = ["home/.bashrc", "project/README.md", "project/src/index.ts", "outside/notes.txt"];

/** Variables set in the agent's environment for the scenario. */
export const AGENT_VARIABLES = {
  SOME_SERVICE_KEY: "CANARY-service-key",
  GITHUB_TOKEN: "CANARY-github-token",
  AWS_SECRET_ACCESS_KEY: "CANARY-aws-secret",
  PROJECT_FLAVOUR: "CANARY-not-allowlisted",
  LC_ALL: "C.UTF-8",
} as const;

export interface ScenarioResult {
  uid: number;
  /** Command → what it printed (stdout and stderr). */
  outputs: Record<string, string>;
  /** `printenv` of the default sandbox, of one granted SOME_SERVICE_KEY, and of a sandbox_escape "unsandboxed" call. */
  environment: { scrubbed: string; granted: string; unsandboxed: string };
  /** `cat .env` after a `Read(./.env)` allow rule was seen, and `cat config/.env.production` then. */
  revealed: { granted: string; other: string };
}

function write(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

/** The fake home, project and outside folder, made with fs calls. */
export function buildFixture(root: string): { home: string; project: string } {
  const home = join(root, "home");
  const project = join(root, "project");
  for (const path of HOME_SECRETS) write(join(home, path), `CANARY-home-${path}\n`);
  for (const path of PROJECT_SECRETS) write(join(project, path), `CANARY-project-${path}\n`);
  write(join(project, ".git", "config"), '[remote "origin"]\n\turl = https://user:CANARY-git-token@example.com/r.git\n');
  write(join(root, "outside", "prod.env"), "CANARY-outside-prod.env\n");
  for (const path of VISIBLE) write(join(root, path), `VISIBLE-${path}\n`);
  mkdirSync(join(project, "links"));
  // A cloned repository may ship links: to a secret outside, and to a folder whose parent is the home.
  symlinkSync(join(root, "outside", "prod.env"), join(project, "linked-secret"));
  symlinkSync(join(home, ".config"), join(project, "links", "outside"));
  return { home, project };
}

async function output(bash: Bash, command: string, input: Record<string, unknown> = {}): Promise<string> {
  const stream = new Toolkit({ tools: [bash] }).callTool({ id: "scenario", name: "Bash", input: { command, ...input } });
  for (;;) {
    const step = await stream.next();
    if (step.done) return step.value.text;
  }
}

/** Builds the fixture under `root` and runs every command in the sandbox. */
export async function runScenario(root: string): Promise<ScenarioResult> {
  const { home, project } = buildFixture(root);
  const saved = { ...process.env };
  Object.assign(process.env, { HOME: home }, AGENT_VARIABLES);
  try {
    const bash = new Bash({ cwd: project, sandbox: "required" });
    const commands = [
      ...HOME_SECRETS.map((path) => `cat ~/${path}`),
      ...PROJECT_SECRETS.map((path) => `cat ${path}`),
      "cat .git/config",
      "cat linked-secret",
      "grep -r CANARY links/outside/..",
      "grep -r CANARY .",
      "cat /etc/shadow /etc/gshadow",
      ...VISIBLE.map((path) => `cat ${join(root, path)}`),
    ];
    const outputs: Record<string, string> = {};
    for (const command of commands) outputs[command] = await output(bash, command);
    const granted = new Bash({ cwd: project, sandbox: { mode: "required", env: ["SOME_SERVICE_KEY"] } });
    const environment = {
      scrubbed: await output(bash, "printenv"),
      granted: await output(granted, "printenv"),
      unsandboxed: await output(bash, "printenv", { sandbox_escape: "unsandboxed" }),
    };
    // The engine that decides a call tells the tool its Read allow rules (the secret read itself still asks).
    await new PermissionEngine({ workingDirectories: [project], allow: ["Read(./.env)"] }).checkPermission(bash, { command: "cat .env" });
    const revealed = { granted: await output(bash, "cat .env"), other: await output(bash, "cat config/.env.production") };
    return { uid: process.getuid?.() ?? -1, outputs, environment, revealed };
  } finally {
    for (const name of Object.keys(process.env)) if (!(name in saved)) delete process.env[name];
    Object.assign(process.env, saved);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  process.stdout.write(JSON.stringify(await runScenario(process.argv[2]!)));
}
