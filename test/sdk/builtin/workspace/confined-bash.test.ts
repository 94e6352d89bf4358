/**
 * The Bash tool on a backend that confines commands itself (docs/workspaces.md#bash-in-a-workspace),
 * here the in-memory test backend: no sandbox of the tool's own around it, whatever `sandbox` says;
 * its status names the confinement; an escape is neither asked for nor run, and says why.
 */
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { Bash, PermissionEngine, PermissionMode, Toolkit } from "@agent-tools/sdk";
import type { WorkspaceBackend } from "@agent-tools/sdk/builtin";
import { runTool } from "../support.js";
import { MemoryWorkspace } from "./support/memory-workspace.js";

let folder: string;
let workspace: MemoryWorkspace;
let backend: WorkspaceBackend;
beforeAll(async () => {
  folder = realpathSync(mkdtempSync(join(tmpdir(), "agent-tools-confined-bash-")));
  workspace = new MemoryWorkspace(folder);
  await workspace.initialize();
  backend = workspace.getBackend();
});
afterAll(async () => {
  await workspace.close();
  rmSync(folder, { recursive: true, force: true });
});

it.each(["auto", "required", "off"] as const)(
  "adds no sandbox of its own with sandbox: %s, and says what confines commands",
  async (mode) => {
    const bash = new Bash({ backend, sandbox: mode });
    expect(bash.sandboxStatus).toEqual({
      sandboxed: true,
      confinedBy: "the memory workspace",
      writableDirectories: [],
      network: false,
      env: [],
      unavailableReason: undefined,
    });
    // The memory backend runs `bash -c` only: a command wrapped in bubblewrap would fail here.
    expect((await runTool(new Toolkit({ tools: [bash] }), "Bash", { command: "echo plain" })).text).toBe("plain\n");
  },
);

it("neither asks for an escape it cannot give nor runs one", async () => {
  const bash = new Bash({ backend });
  const call = { command: "echo hi", sandbox_escape: "unsandboxed" };
  const decision = await new PermissionEngine({ mode: PermissionMode.DEFAULT, workingDirectories: [folder] }).checkPermission(bash, call);
  expect(decision.behavior).toBe("allow");
  const refused = await runTool(new Toolkit({ tools: [bash] }), "Bash", call);
  expect(refused).toMatchObject({
    state: "error",
    text:
      'Error: sandbox_escape "unsandboxed" is not available: commands run in the memory workspace, which the workspace ' +
      "provides and no command can leave. Run the command without sandbox_escape, or use a workspace that allows it.",
  });
  expect((await runTool(new Toolkit({ tools: [bash] }), "Bash", { command: "echo hi", sandbox_escape: "network" })).state).toBe("error");
});
