import { afterAll, describe, expect, it } from "vitest";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { Bash, PermissionEngine, PermissionMode } from "@agent-tools/sdk";
import { temporaryDirectory } from "./support.js";

/**
 * In the OS sandbox without network, edits inside the sandbox's writable directories are
 * auto-allowed in every mode but EXPLORE (the sandbox bounds what they can do); everything else is
 * decided as without the sandbox. Needs bubblewrap (installed by .ci/run). Commands are only analysed.
 */
const project = temporaryDirectory("builtin-bash-sandbox-permission-");
mkdirSync(join(project.path, "src"));
afterAll(() => project.remove());

const sandboxed = new Bash({ cwd: project.path, sandbox: "required" });
const networked = new Bash({ cwd: project.path, sandbox: { mode: "required", network: true } });
const plain = new Bash({ cwd: project.path, sandbox: "off" });

function decide(bash: Bash, command: string, mode: PermissionMode = PermissionMode.DEFAULT) {
  return new PermissionEngine({ mode, workingDirectories: [project.path] }).checkPermission(bash, { command });
}

describe("Bash in the sandbox", () => {
  it("is sandboxed without network", () => {
    expect(sandboxed.sandboxed).toBe(true);
    expect(sandboxed.sandboxStatus.network).toBe(false);
  });

  it.each([
    "echo notes > notes.txt",
    "mkdir -p src/lib && touch src/lib/a.ts",
    "cp notes.txt src/",
    "sed -i s/a/b/ src/a.ts",
    "rm -f src/old.ts",
  ])("auto-allows the edit %j in DEFAULT mode", async (command) => {
    const decision = await decide(sandboxed, command);
    expect(decision.behavior).toBe("allow");
    expect(decision.reason).toContain("sandbox.contained-edit");
    expect((await decide(plain, command)).behavior).toBe("ask");
  });

  it.each([
    "echo x > ../outside.txt",
    "cp notes.txt /etc/",
    "echo x > ~/.bashrc",
    "rm -rf .",
    "curl -s https://example.com -o x",
    "npm install",
    "echo x > .git/config",
  ])("still asks for %j", async (command) => {
    expect((await decide(sandboxed, command)).behavior).not.toBe("allow");
  });

  it("does not auto-allow edits when the sandbox has network, nor in EXPLORE", async () => {
    expect((await decide(networked, "echo notes > notes.txt")).behavior).toBe("ask");
    expect((await decide(sandboxed, "echo notes > notes.txt", PermissionMode.EXPLORE)).behavior).toBe("deny");
  });
});
