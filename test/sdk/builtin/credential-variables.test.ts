import { afterAll, describe, expect, it } from "vitest";
import { Bash, PermissionEngine } from "@agent-tools/sdk";
import { CREDENTIAL_NAME_EXCEPTIONS, CREDENTIAL_NAME_RULES, holdsCredential } from "../../../sdk/src/builtin/shell/secret-variables.js";
import { temporaryDirectory } from "./support.js";

const project = temporaryDirectory("builtin-credential-variables-");
afterAll(() => project.remove());
const bash = new Bash({ cwd: project.path, sandbox: "off" });
const decide = (command: string) => new PermissionEngine({ workingDirectories: [project.path] }).checkPermission(bash, { command });

describe("credential variables are recognised by the structure of their name", () => {
  it.each(CREDENTIAL_NAME_RULES.map((rule) => [rule.example, rule.reason] as const))("%s holds a credential (%s)", (name) => {
    expect(holdsCredential(name, undefined)).toBe(true);
  });

  it.each(CREDENTIAL_NAME_EXCEPTIONS.map((entry) => [entry.name, entry.reason] as const))("%s does not (%s)", (name) => {
    expect(holdsCredential(name, undefined)).toBe(false);
  });

  // Names no list spells out: each is recognised by kind.
  it.each([
    "SMTP_PASS",
    "MONGO_URI",
    "MYSQL_PWD",
    "REDIS_URI",
    "PG_URL",
    "STRIPE_KEY",
    "ANTHROPIC_AUTH_TOKEN",
    "HEROKU_APIKEY",
    "mailgun_smtp_password",
    "DJANGO_SECRET",
    "ROLLBAR_ACCESS_TOKEN",
    "GH_PAT",
    "KEYCLOAK_ADMIN_PW",
  ])("%s is a credential variable", (name) => {
    expect(holdsCredential(name, undefined)).toBe(true);
  });

  it.each([
    "PATH",
    "HOME",
    "AUTHOR",
    "KEYBOARD_LAYOUT",
    "SESSIONS_DIR_COUNT_X",
    "COMPASS_DIR",
    "PASSENGER_APP_ENV",
    "TOKENIZERS_PARALLELISM",
  ])("%s is not", (name) => {
    // SESSIONS_DIR_COUNT_X: SESSIONS is not the word SESSION; PASSENGER is not PASS.
    expect(holdsCredential(name, undefined)).toBe(false);
  });

  it("a variable whose value is a URL with userinfo holds a credential whatever its name", () => {
    expect(holdsCredential("SERVICE_ENDPOINT", "https://app:hunter2@svc.internal/api")).toBe(true);
    expect(holdsCredential("SERVICE_ENDPOINT", "https://svc.internal/api")).toBe(false);
  });
});

describe("expanding a credential variable is not read-only", () => {
  const saved = process.env.BUILD_CACHE_ENDPOINT;
  afterAll(() => {
    if (saved === undefined) delete process.env.BUILD_CACHE_ENDPOINT;
    else process.env.BUILD_CACHE_ENDPOINT = saved;
  });

  it.each(["echo $SMTP_PASS", 'printf "%s" "$MONGO_URI"', 'echo "$MYSQL_PWD"x'])("%s asks", async (command) => {
    expect((await decide(command)).behavior).toBe("ask");
  });

  it.each(["echo $PWD", "echo $OLDPWD", "echo $GPG_TTY", "echo $AUTHOR"])("%s is allowed", async (command) => {
    expect((await decide(command)).behavior).toBe("allow");
  });

  it("a URL with userinfo in the agent's environment counts by its value", async () => {
    process.env.BUILD_CACHE_ENDPOINT = "https://ci:t0ken@cache.example";
    expect((await decide("echo $BUILD_CACHE_ENDPOINT")).behavior).toBe("ask");
    process.env.BUILD_CACHE_ENDPOINT = "https://cache.example";
    // Another spelling: the tool caches the analysis of a command string.
    expect((await decide('echo "$BUILD_CACHE_ENDPOINT"')).behavior).toBe("allow");
  });
});
