import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { Bash, PermissionEngine, PermissionMode, Toolkit } from "@agent-tools/sdk";
import { loopbackListener, runTool, temporaryDirectory } from "./support.js";

/**
 * `sandbox_escape` (docs/sandbox.md#escaping-the-sandbox-for-one-command): a call that asks to
 * leave the sandbox is asked for in every mode, BYPASS included, unless an allow rule names that
 * escape; DONT_ASK and EXPLORE refuse it. Decisions through the real engine; two real runs show
 * the requested changes what the one command gets.
 */
const project = temporaryDirectory("builtin-bash-escape-");
writeFileSync(join(project.path, ".env"), "KEY=1\n");
afterAll(() => project.remove());

const sandboxed = new Bash({ cwd: project.path, sandbox: "required" });
const networked = new Bash({ cwd: project.path, sandbox: { mode: "required", network: true } });
const plain = new Bash({ cwd: project.path, sandbox: "off" });

type Escape = "network" | "unsandboxed";
const decide = (
  bash: Bash,
  command: string,
  requested: Escape | undefined,
  options: { mode?: PermissionMode; allow?: string[]; deny?: string[] } = {},
) =>
  new PermissionEngine({ workingDirectories: [project.path], ...options }).checkPermission(bash, {
    command,
    ...(requested === undefined ? {} : { sandbox_escape: requested }),
  });

const ESCAPES: Escape[] = ["network", "unsandboxed"];
const EVERY_ALLOW = ["Bash", "Bash(ls:*)", "Bash(npm test:*)"];

describe("asking to escape the sandbox", () => {
  it.each(ESCAPES.flatMap((requested) => ["ls", "npm test"].map((command) => [requested, command] as const)))(
    "%s for %j asks in DEFAULT, ACCEPT_EDITS and BYPASS, whatever plain allow rules say; DONT_ASK and EXPLORE refuse",
    async (requested, command) => {
      for (const mode of [PermissionMode.DEFAULT, PermissionMode.ACCEPT_EDITS, PermissionMode.BYPASS]) {
        const decision = await decide(sandboxed, command, requested, { mode, allow: EVERY_ALLOW });
        expect(decision, mode).toMatchObject({ behavior: "ask", alwaysAsk: true, suggestions: [] });
        expect(decision.reason).toContain("fact.sandbox-escape");
        expect(decision.message).toContain(`sandbox_escape "${requested}"`);
      }
      for (const mode of [PermissionMode.DONT_ASK, PermissionMode.EXPLORE])
        expect((await decide(sandboxed, command, requested, { mode, allow: EVERY_ALLOW })).behavior, mode).toBe("deny");
    },
  );

  it("says what the command would be asked for anyway", async () => {
    const decision = await decide(sandboxed, "cat .env", "unsandboxed");
    expect(decision.message).toMatch(/sandbox_escape "unsandboxed".*besides: .*reads sensitive paths: \.env/);
  });
});

describe("an allow rule naming the escape", () => {
  const npmNetwork = ["Bash(npm test:* [sandbox_escape=network])"];

  it("allows the commands it covers with that requested, in DEFAULT and DONT_ASK", async () => {
    for (const mode of [PermissionMode.DEFAULT, PermissionMode.DONT_ASK]) {
      const decision = await decide(sandboxed, "npm test -- --watch=false", "network", { mode, allow: npmNetwork });
      expect(decision.behavior, mode).toBe("allow");
      expect(decision.reason).not.toContain("sandbox.contained-edit");
    }
  });

  it("covers nothing else: another requested, an uncovered command beside it, a read-only command it does not name", async () => {
    expect((await decide(sandboxed, "npm test", "unsandboxed", { allow: npmNetwork })).behavior).toBe("ask");
    expect((await decide(sandboxed, "npm test && curl https://example.org", "network", { allow: npmNetwork })).behavior).toBe("ask");
    expect((await decide(sandboxed, "ls", "network", { allow: npmNetwork })).behavior).toBe("ask");
  });

  it("does not allow the command without the escape: it names the escape, not the command alone", async () => {
    expect((await decide(sandboxed, "npm test", undefined, { allow: npmNetwork })).behavior).toBe("ask");
  });

  it("with * covers every command, and the safety facts still come first", async () => {
    const any = ["Bash(* [sandbox_escape=unsandboxed])"];
    expect((await decide(sandboxed, "ls", "unsandboxed", { allow: any })).behavior).toBe("allow");
    expect((await decide(sandboxed, "curl -s https://example.org", "unsandboxed", { allow: any })).behavior).toBe("allow");
    expect(await decide(sandboxed, "cat .env", "unsandboxed", { allow: any })).toMatchObject({ behavior: "ask", bypassImmune: true });
  });
});

describe("deny rules and escapes", () => {
  it("a deny rule naming an requested refuses only calls asking for it", async () => {
    const deny = ["Bash(* [sandbox_escape=unsandboxed])"];
    expect((await decide(sandboxed, "ls", "unsandboxed", { deny, mode: PermissionMode.BYPASS })).behavior).toBe("deny");
    expect((await decide(sandboxed, "ls", "network", { deny })).behavior).toBe("ask");
    expect((await decide(sandboxed, "ls", undefined, { deny })).behavior).toBe("allow");
  });

  it("a plain deny rule refuses the command with or without an escape", async () => {
    for (const requested of [undefined, ...ESCAPES])
      expect((await decide(sandboxed, "git push origin main", requested, { deny: ["Bash(git push:*)"] })).behavior).toBe("deny");
  });
});

describe("an requested that widens nothing", () => {
  it("a rule naming it still covers only what it names there", async () => {
    const allow = ["Bash(npm test:* [sandbox_escape=network])"];
    for (const bash of [plain, networked]) {
      expect((await decide(bash, "npm test", "network", { allow })).behavior).toBe("allow");
      expect(await decide(bash, "npm test && rm -rf build", "network", { allow })).toMatchObject({ behavior: "ask", bypassImmune: true });
    }
  });

  it("is not asked for where the tool is unsandboxed, or already has the network", async () => {
    for (const requested of ESCAPES) expect((await decide(plain, "ls", requested)).behavior).toBe("allow");
    expect((await decide(networked, "ls", "network")).behavior).toBe("allow");
    expect((await decide(networked, "ls", "unsandboxed")).behavior).toBe("ask");
  });
});

describe("the input field", () => {
  it("is in the input schema with its values and what they do", () => {
    const property = (sandboxed.inputSchema.properties as Record<string, { enum?: string[]; description?: string }>).sandbox_escape!;
    expect(property.enum).toEqual(ESCAPES);
    expect(property.description).toMatch(/"network" .*"unsandboxed" .*The user is asked first/);
    expect(sandboxed.description).toContain("sandbox_escape");
  });

  it("refuses an unknown value on call, naming the valid ones", async () => {
    const response = await runTool(new Toolkit({ tools: [sandboxed] }), "Bash", { command: "true", sandbox_escape: "everything" });
    expect(response.state).toBe("error");
    expect(response.text).toBe('Error: sandbox_escape must be one of "network", "unsandboxed", got "everything".');
  });
});

describe("running with an escape", () => {
  let listener: Awaited<ReturnType<typeof loopbackListener>>;
  let port: number;
  beforeAll(async () => {
    listener = await loopbackListener();
    port = listener.port;
  });
  afterAll(() => listener.close());

  it("network reaches the host's network for that command only, still in the sandbox", async () => {
    const toolkit = new Toolkit({ tools: [sandboxed] });
    const probe = `exec 3<>/dev/tcp/127.0.0.1/${port} && head -1 <&3`;
    expect((await runTool(toolkit, "Bash", { command: probe, sandbox_escape: "network" })).text).toBe("reached\n");
    expect((await runTool(toolkit, "Bash", { command: probe })).state).toBe("error");
    const write = await runTool(toolkit, "Bash", { command: "echo x > /var/tmp/escape-network-probe", sandbox_escape: "network" });
    expect(write.text).toMatch(/Read-only file system/);
  });
});
