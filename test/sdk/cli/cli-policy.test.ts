import { afterAll, describe, expect, it } from "vitest";
import { temporaryDirectory } from "../builtin/support.js";
import { runCliCaptured } from "../support/captured-cli.js";

/**
 * `agent-tools policy explain` decides as the Bash tool does by default (sandboxed where
 * bubblewrap works, as here), and explains the unsandboxed tool and a sandbox escape on request.
 * Commands are only decided.
 */
const project = temporaryDirectory("cli-policy-");
afterAll(() => project.remove());
const explain = (...args: string[]) => runCliCaptured(["policy", "explain", ...args, "--json"], project.path);

describe("agent-tools policy explain", () => {
  it("explains the sandboxed tool by default, the unsandboxed one with --sandbox off", async () => {
    const sandboxed = JSON.parse((await explain("echo x > notes.txt")).out);
    expect(sandboxed).toMatchObject({ behavior: "allow", reason: expect.stringContaining("sandbox.contained-edit") });
    const unsandboxed = JSON.parse((await explain("echo x > notes.txt", "--sandbox", "off")).out);
    expect(unsandboxed).toMatchObject({ behavior: "ask", reason: "Mode: default" });
  });

  it("explains a call asking to escape the sandbox, and one a rule names", async () => {
    const asked = JSON.parse((await explain("npm test", "--sandbox-escape", "network", "--mode", "bypass")).out);
    expect(asked).toMatchObject({ behavior: "ask", reason: expect.stringContaining("fact.sandbox-escape") });
    const allowed = JSON.parse(
      (await explain("npm test", "--sandbox-escape", "network", "--allow", "Bash(npm test:* [sandbox_escape=network])")).out,
    );
    expect(allowed.behavior).toBe("allow");
  });

  it("refuses an unknown escape, naming the valid ones", async () => {
    const run = await explain("ls", "--sandbox-escape", "everything");
    expect(run.status).not.toBe(0);
    expect(run.err).toMatch(/network, unsandboxed/);
  });
});
