/**
 * The sandboxed local workspace bounds every command (docs/workspaces.md#sandboxed-local), run for
 * real with bubblewrap: as the user running the tests and, in a child process, as an unprivileged
 * user (uid 65534 through setpriv when the tests run as root). Fixtures live under /var/tmp: the
 * sandbox replaces /tmp with a private one, which would hide them for the wrong reason.
 */
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SandboxedLocalWorkspace, SandboxUnavailableError } from "@agent-tools/sdk";
import type { SandboxPlatform } from "@agent-tools/sdk/sandbox";
import { runAsUserAndUnprivileged, scenarioFolders } from "../support/scenario-runs.js";
import { runWorkspaceScenario, type WorkspaceScenario } from "./support/sandboxed-workspace-scenario.js";

const scenario = fileURLToPath(new URL("./support/sandboxed-workspace-scenario.ts", import.meta.url));
const folders = scenarioFolders("sandboxed-workspace-");
afterAll(() => folders.removeAll());

const runs: { who: string; folder: string; result: WorkspaceScenario }[] = [];
beforeAll(async () => {
  runs.push(...(await runAsUserAndUnprivileged(scenario, runWorkspaceScenario, folders)));
}, 120_000);

describe.each([0, 1])("SandboxedLocalWorkspace, run %#", (index) => {
  const run = () => runs[index]!;

  it("runs as who it says (the second run never as root)", () => {
    if (index === 1) expect(run().result.uid).not.toBe(0);
  });

  it("lets commands write the project folder and nothing beside it", () => {
    const { writeInside, writeOutside } = run().result;
    expect(writeInside).toEqual({ exitCode: 0, created: true });
    expect(writeOutside.exitCode).not.toBe(0);
    expect(writeOutside.created).toBe(false);
    expect(writeOutside.stderr).toMatch(/Read-only file system|Permission denied/);
  });

  it("gives commands no network: the agent's loopback is out of reach", () => {
    expect(run().result.loopback.exitCode).not.toBe(0);
    expect(run().result.loopback.stdout).not.toContain("reached");
  });

  it("masks the project's secrets and scrubs the agent's environment", () => {
    const { secret, environment } = run().result;
    expect(secret).not.toContain("CANARY-");
    expect(environment).toMatch(/^PATH=/m);
    expect(environment).not.toContain("CANARY-");
  });

  it("confines the Bash tool itself: no second sandbox, the project the one writable folder", () => {
    expect(run().result.bash).toEqual({
      sandboxed: true,
      confinedBy: "the OS sandbox (bubblewrap)",
      writable: [`${run().folder}/project`],
      output: "through-the-tool\n",
    });
  });
});

describe("SandboxedLocalWorkspace without a sandbox", () => {
  it("refuses to start instead of running commands unsandboxed", async () => {
    const missing: SandboxPlatform = {
      name: "none",
      probe: () => ({ available: false, platform: "linux", reason: "bubblewrap is not installed", fix: "apt-get install bubblewrap" }),
      wrap: () => {
        throw new Error("never wraps");
      },
    };
    const workspace = new SandboxedLocalWorkspace({ projectDirectory: folders.folder(), platform: missing });
    const refused = await workspace.initialize().catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(SandboxUnavailableError);
    expect((refused as SandboxUnavailableError).message).toMatch(/bubblewrap is not installed.*apt-get install bubblewrap/s);
    await workspace.close();
  });
});
