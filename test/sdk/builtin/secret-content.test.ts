import { mkdirSync, rmSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { Bash, PermissionEngine, PermissionMode } from "@agent-tools/sdk";
import { CREDENTIAL_HINTS, credentialContentReason, hintIn } from "../../../sdk/src/builtin/paths/secret-content.js";
import { temporaryDirectory } from "./support.js";

/**
 * Secrets by kind (docs/command-policy.md#secrets-by-content): a file whose opening holds a
 * credential is a secret whatever it is called. Rule by rule, then through real decisions on files
 * no name list knows. Commands are only decided, never run.
 */
const base = temporaryDirectory("builtin-secret-content-");
const project = join(base.path, "project");
mkdirSync(join(project, "config"), { recursive: true });
afterAll(() => base.remove());

describe("each hint", () => {
  it.each(CREDENTIAL_HINTS.map((hint) => [hint.reason, hint]))("matches its sample: %s", (_, hint) => {
    expect(hint.pattern.test(hint.sample)).toBe(true);
  });

  it.each([
    "token = cnry0123456789abcdef01234567",
    '{"auths": {"registry.example": {"auth": "dXNlcjpwYXNzd29yZDEyMw=="}}}',
    "DB_PASSWORD=s3cr3tpassw0rd",
    "  password: hunter22",
    "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
    "define( 'AUTH_SECRET', 'p9Q2x7LmZ4vR8sK1' );",
    "authtoken: 2abcDEF0123456789xyz",
    '"secretKey": "minio0123456789secret"',
    "redis://:s3cretpass@cache.internal:6379/0",
  ])("finds a credential in %j", (text) => {
    expect(hintIn(text)).toBeDefined();
  });

  it.each([
    "const token = getToken();",
    'password = request.form["pw"]',
    "secret_key = settings.SECRET_KEY",
    'api_key = os.environ["API_KEY"]',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a CI file's placeholder, as written in it
    "token: ${{ secrets.GITHUB_TOKEN }}",
    '"integrity": "sha512-abc123def456ghi789"',
    "max_tokens: 4096",
    'tokenizer = AutoTokenizer.from_pretrained("x")',
    "password: changeme",
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a configuration file's placeholder, as written in it
    "password: ${DB_PASSWORD}",
    'author = "John Smith 2024"',
    "passwordField.focus()",
    "bypass: true",
    'cache_key = "user_profile_12345"',
    "https://example.org/docs/auth",
  ])("finds none in %j", (text) => {
    expect(hintIn(text)).toBeUndefined();
  });
});

describe("files no list names", () => {
  const bash = new Bash({ cwd: project, sandbox: "off" });
  const decide = (command: string) =>
    new PermissionEngine({ mode: PermissionMode.DEFAULT, workingDirectories: [project] }).checkPermission(bash, { command });

  it("a read of one asks, naming what it holds; a plain file next to it is read freely", async () => {
    writeFileSync(join(project, "wp-config.php"), "<?php\ndefine( 'DB_PASSWORD', 'h7Fq2LpX9zR4wK' );\n");
    writeFileSync(join(project, "README.md"), "# app\nSet DB_PASSWORD in your environment.\n");
    const secret = await decide("cat wp-config.php");
    expect(secret.behavior).toBe("ask");
    expect(secret.message).toContain("wp-config.php");
    expect((await decide("cat README.md")).behavior).toBe("allow");
  });

  it("a recursive read of a folder holding one asks", async () => {
    writeFileSync(join(project, "config", "database.yml"), "production:\n  adapter: postgresql\n  password: hunter22\n");
    writeFileSync(join(project, "config", "app.yml"), "name: app\n");
    expect((await decide("grep -r adapter config")).behavior).toBe("ask");
    expect((await decide("grep -r name config/app.yml")).behavior).toBe("allow");
  });

  it("a path the kernel cannot look up is no secret and no crash: a file as a folder (a worktree's .git), a loop", async () => {
    writeFileSync(join(project, ".git"), "gitdir: /elsewhere/.git/worktrees/x\n");
    expect(credentialContentReason(join(project, ".git", "HEAD"))).toBeUndefined();
    symlinkSync("loop-b", join(project, "loop-a"));
    symlinkSync("loop-a", join(project, "loop-b"));
    expect(credentialContentReason(join(project, "loop-a"))).toBeUndefined();
    expect((await decide("cat .git/HEAD")).behavior).not.toBe("deny");
    rmSync(join(project, ".git"));
  });

  it("is judged again when the file changes", () => {
    const path = join(project, "settings.cfg");
    writeFileSync(path, "name = app\n");
    expect(credentialContentReason(path)).toBeUndefined();
    writeFileSync(path, "api_key = 9f8e7d6c5b4a39281716\n");
    utimesSync(path, new Date(), new Date(Date.now() + 5_000));
    expect(credentialContentReason(path)).toBe("a token-like value assigned to a credential's name");
  });
});
