import { afterAll, describe, expect, it } from "vitest";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Bash, PermissionEngine, PermissionMode, type PermissionEngineOptions } from "@agent-tools/sdk";
import { temporaryDirectory } from "./support.js";

// notes/private.txt is denied; `dk` links into notes/drafts, so `dk/../private.txt` is notes/private.txt for the kernel.
const project = temporaryDirectory("builtin-bash-path-rules-");
mkdirSync(join(project.path, "notes", "drafts"), { recursive: true });
mkdirSync(join(project.path, "src"));
writeFileSync(join(project.path, "notes", "private.txt"), "private\n");
writeFileSync(join(project.path, "notes", "public.txt"), "public\n");
symlinkSync(join(project.path, "notes", "drafts"), join(project.path, "dk"));
afterAll(() => project.remove());

const bash = new Bash({ cwd: project.path, sandbox: "off" });
const decide = (command: string, options: PermissionEngineOptions) =>
  new PermissionEngine({ workingDirectories: [project.path], ...options }).checkPermission(bash, { command });

const MODES = [PermissionMode.DEFAULT, PermissionMode.ACCEPT_EDITS, PermissionMode.DONT_ASK, PermissionMode.BYPASS];

describe("Read(path) and Edit(path) rules govern the paths Bash commands read and write", () => {
  it.each([
    "cat notes/private.txt",
    "grep x notes/private.txt",
    "head -3 ./notes/../notes/private.txt",
    "cat dk/../private.txt",
    "cp notes/private.txt /tmp/x",
  ])("Read(notes/private.txt) denies %j in every mode", async (command) => {
    for (const mode of MODES) {
      const decision = await decide(command, { deny: ["Read(notes/private.txt)"], mode });
      expect(decision).toMatchObject({ behavior: "deny", reason: "Rule: Read(notes/private.txt)" });
    }
  });

  it.each(["echo x > src/a.ts", "touch src/b.ts", "rm src/c.ts"])("Edit(src/**) denies %j", async (command) => {
    for (const mode of MODES) expect((await decide(command, { deny: ["Edit(src/**)"], mode })).behavior).toBe("deny");
  });

  it("an ask rule asks, whatever the allow rules", async () => {
    const decision = await decide("cat notes/private.txt", { ask: ["Read(notes/private.txt)"], allow: ["Bash(cat:*)"] });
    expect(decision).toMatchObject({ behavior: "ask", bypassImmune: true });
  });

  it.each(["cat notes/public.txt", "cat README.md", "ls notes"])("leaves %j alone", async (command) => {
    expect((await decide(command, { deny: ["Read(notes/private.txt)", "Edit(src/**)"] })).behavior).toBe("allow");
  });
});
