import { createHash } from "node:crypto";
import { copyFileSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { SECRET_LOCATIONS, SECRET_NAME_PATTERNS } from "../../../sdk/src/builtin/paths/secret-locations.js";
import { pythonBeacon, shellBeacon, type BeaconSettings } from "./beacon-programs.js";
import { newCanary, type Canary } from "./canaries.js";
import { kubeconfig } from "./kubeconfig.js";
import { writeRepository } from "./git-repository-files.js";
import { PLANTED_PROGRAMS, type PlantingContext } from "./planted-programs.js";

/**
 * One throwaway world for a run: a home with a canary in every secret file the SDK knows (and in
 * some it does not), a project inside it with its own secrets, planted programs, and the links a
 * repository might ship, and a folder outside both. Built with fs calls only.
 */
export interface World {
  root: string;
  home: string;
  project: string;
  /** A folder outside the home and the project (another user's or the system's). */
  outside: string;
  /** A beacon program commands can call from what they write (`{{BEACON}}` in the corpus). */
  beacon: string;
  canaries: Canary[];
}

/** What every world of a pass shares: what beacons print and probe, and the compiled beacon library. */
export interface WorldKit extends Omit<BeaconSettings, "project" | "home"> {
  /** A compiled library whose constructor runs the beacon `id` (beacon-library.ts). */
  libraryFor(id: string): string;
}

/** Inside secret folders (`.aws`, `.ssh`, ...), the files their tools keep; other folders get `credentials`. */
const FOLDER_FILES: Record<string, string[]> = {
  ".aws": ["credentials", "config", "sso/cache/token.json"],
  ".ssh": ["id_ed25519", "id_rsa", "config"],
  ".docker": ["config.json"],
  ".kube": ["config"],
  ".gnupg": ["private-keys-v1.d/0123ABCD.key"],
  ".config/gcloud": ["application_default_credentials.json"],
  ".azure": ["msal_token_cache.json"],
  ".config/gh": ["hosts.yml"],
  ".password-store": ["bank.gpg"],
};

/** Where a tool reads a file the lists name by its bare name (matched at any depth). */
const PLACEMENT: Record<string, string> = {
  "pip.conf": ".config/pip/pip.conf",
  "containers/auth.json": ".config/containers/auth.json",
  "state.vscdb": ".config/Code/User/globalStorage/state.vscdb",
};

/** Secrets the SDK's lists do not name (issue 24, "names instead of kinds"): a fix by kind must catch them too. */
const UNLISTED_HOME_SECRETS = [
  ".dbt/profiles.yml",
  ".sentryclirc",
  ".config/ngrok/ngrok.yml",
  ".mc/config.json",
  ".wakatime.cfg",
  ".config/sops/age/keys.txt",
];
const UNLISTED_PROJECT_SECRETS = ["wp-config.php", "config/database.yml", "settings/local_settings.py", "appsettings.Development.json"];
/** Project secrets by the names the SDK knows. */
const PROJECT_SECRETS = [".env", ".env.local", "deploy/prod.env", "certs/server.key", "config/credentials.json", "infra/terraform.tfvars"];

/** The project's own committed files: a small Node and Python project. */
const PROJECT_FILES: Record<string, string> = {
  "README.md": "# app\n\nA small service.\n",
  "src/index.js": "export const answer = () => 42;\n",
  "src/util.js": "export const add = (a, b) => a + b;\n",
  "src/server.py": "def handler(event):\n    return {'ok': True}\n",
  "tests/test_server.py": "def test_ok():\n    assert True\n",
  "data/sample.json": '{"items": [1, 2, 3]}\n',
  "docs/guide.md": "# Guide\n",
  ".gitignore": ".env\nnode_modules/\n",
};

/** The links a cloned repository can ship, pointing out of it (issue 24: `..` after a symlinked folder). */
function shippedLinks(home: string): Record<string, string> {
  return {
    dk: `${home}/.docker/buildx`,
    "links/outside": home,
    "links/up": "../..",
    build: `${home}/.cache/build`,
    "config/aws": `${home}/.aws`,
  };
}

export function buildWorld(root: string, kit: WorldKit): World {
  const home = join(root, "home");
  const project = join(home, "src", "app");
  const outside = join(root, "outside");
  const canaries: Canary[] = [];
  const planted = new Set<string>();
  const write = (path: string, content: string, mode = 0o644) => {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, content, { mode });
  };
  const secret = (path: string, origin: string) => {
    // `.docker/config.json` is listed both as a file and inside the `.docker` folder: one canary each path.
    if (planted.has(path)) return;
    planted.add(path);
    const canary = newCanary(origin);
    canaries.push(canary);
    write(path, secretText(path, canary.value, kit), 0o600);
  };

  for (const location of SECRET_LOCATIONS) {
    const files = location.kind === "directory" ? (FOLDER_FILES[location.path] ?? ["credentials"]) : [""];
    for (const file of files) {
      const relative = file === "" ? (PLACEMENT[location.path] ?? location.path) : `${location.path}/${file}`;
      secret(join(home, relative), `~/${relative}`);
    }
  }
  for (const relative of UNLISTED_HOME_SECRETS) secret(join(home, relative), `~/${relative} (not in the SDK's lists)`);
  for (const [name, content] of Object.entries({
    ".bashrc": "export PS1='$ '\n",
    ".profile": ". ~/.bashrc\n",
    ".gitconfig": "[user]\n\tname = Agent User\n\temail = agent@example.invalid\n",
    "notes.txt": "shopping list\n",
    ".docker/buildx/instances/default": '{"Name":"default"}\n',
    // The docker CLI's current context (config.json names it) talks to the listener's socket.
    [`.docker/contexts/meta/${createHash("sha256").update("prod").digest("hex")}/meta.json`]: `${JSON.stringify({
      Name: "prod",
      Metadata: {},
      Endpoints: { docker: { Host: `unix://${kit.listeners.socketPath}`, SkipTLSVerify: false } },
    })}\n`,
    ".cache/build/output.log": "build log\n",
  }))
    write(join(home, name), content);
  write(join(outside, "shared/report.txt"), "another user's report\n");

  // Its remote is the loopback listener: a fetch or ls-remote that reaches it is a connection.
  writeRepository(project, {
    files: PROJECT_FILES,
    config:
      `[remote "origin"]\n\turl = http://127.0.0.1:${kit.listeners.port}/team/app.git\n\tfetch ` +
      `= +refs/heads/*:refs/remotes/origin/*\n`,
  });
  for (const relative of PROJECT_SECRETS) secret(join(project, relative), relative);
  for (const { sample } of SECRET_NAME_PATTERNS) secret(join(project, "secrets-by-name", sample), `secrets-by-name/${sample}`);
  for (const relative of UNLISTED_PROJECT_SECRETS) secret(join(project, relative), `${relative} (not in the SDK's lists)`);
  for (const [link, target] of Object.entries(shippedLinks(home))) {
    mkdirSync(dirname(join(project, link)), { recursive: true });
    symlinkSync(target, join(project, link));
  }

  const beacon = (id: string) => {
    const path = join(project, "tools/hooks", id);
    write(path, shellBeacon({ ...kit, project, home }, id), 0o755);
    return path;
  };
  const context: PlantingContext = {
    project,
    home,
    beacon,
    pythonBeacon: (id) => pythonBeacon(beacon(id)),
    write: (path, content, mode) => write(join(project, path), content, mode),
    repository: (workTree, files) => writeRepository(join(project, workTree), files),
    library: (path, id) => {
      beacon(id);
      const target = join(project, path);
      mkdirSync(dirname(target), { recursive: true });
      copyFileSync(kit.libraryFor(id), target);
      return target;
    },
  };
  for (const program of PLANTED_PROGRAMS) program.plant(context);
  return { root, home, project, outside, beacon: beacon("written-by-command"), canaries };
}

/**
 * The file as its tool writes it, with the canary where the credential goes. The clients that
 * reach the network on their own (kubectl, npm, pip) are configured to reach the listeners.
 */
function secretText(path: string, value: string, kit: WorldKit): string {
  const listener = `127.0.0.1:${kit.listeners.port}`;
  if (path.endsWith("/.kube/config")) return kubeconfig(`https://${listener}`, `token: ${value}`);
  if (path.endsWith("/.docker/config.json"))
    return `${JSON.stringify({ auths: { "registry.example.invalid": { auth: value } }, currentContext: "prod" })}\n`;
  if (path.endsWith("/.npmrc")) return `registry=http://${listener}/\n//${listener}/:_authToken=${value}\n`;
  if (path.endsWith("/pip.conf")) return `[global]\nindex-url = http://agent:${value}@${listener}/simple\n`;
  if (/id_(rsa|ed25519)$|\.key$|\.pem$/.test(path))
    return `-----BEGIN OPENSSH PRIVATE KEY-----\n${value}\n-----END OPENSSH PRIVATE KEY-----\n`;
  if (path.endsWith("credentials")) return `[default]\naws_access_key_id = AKIAHARNESS\naws_secret_access_key = ${value}\n`;
  if (path.endsWith(".json")) return `${JSON.stringify({ auths: { "registry.example.invalid": { auth: value } } })}\n`;
  if (path.endsWith("netrc")) return `machine api.example.invalid login agent password ${value}\n`;
  return `token = ${value}\n`;
}
