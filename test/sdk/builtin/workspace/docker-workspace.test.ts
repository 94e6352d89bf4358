/**
 * The Docker workspace against a real engine: Podman's Docker-compatible API (test/support/
 * podman-engine.ts) with an image built from this machine's programs. The conformance suite runs
 * unchanged; then what only a container gives: a container per workspace with the project mounted
 * and no network, nothing of the host outside the project, the container user's rights for commands
 * and file operations alike, process groups killed at a timeout, Bash confined by the container,
 * and clear errors for a missing engine or image.
 */
import { execFileSync } from "node:child_process";
import {
  chmodSync,
  copyFileSync,
  cpSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Bash, createBuiltinTools, DockerWorkspace, PermissionEngine, Toolkit } from "@agent-tools/sdk";
import type { WorkspaceBackend } from "@agent-tools/sdk/builtin";
import { startPodmanEngine, type PodmanEngine } from "../../../support/podman-engine.js";
import { runTool } from "../support.js";
import { describeWorkspaceConformance, failure } from "./support/workspace-conformance.js";

const SKILL_FIXTURES = fileURLToPath(new URL("../../../fixtures/skills/", import.meta.url));
const PROGRAMS = ["bash", "sh", "cat", "stat", "find", "mkdir", "rm", "sleep", "id", "ls"];

let engine: PodmanEngine;
let image: string;
beforeAll(async () => {
  engine = await startPodmanEngine();
  image = await engine.buildImage(PROGRAMS);
}, 120_000);
afterAll(() => engine?.close());

const workspaceOn = (projectDirectory: string, options: Partial<ConstructorParameters<typeof DockerWorkspace>[0]> = {}) =>
  new DockerWorkspace({ image, projectDirectory, engine: { socketPath: engine.socketPath }, ...options });

describeWorkspaceConformance({ name: "DockerWorkspace", create: (projectDirectory) => workspaceOn(projectDirectory) });

function project(): { path: string; remove: () => void } {
  const path = realpathSync(mkdtempSync(join(tmpdir(), "agent-tools-docker-project-")));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

async function withWorkspace<T>(
  options: Partial<ConstructorParameters<typeof DockerWorkspace>[0]>,
  body: (backend: WorkspaceBackend, folder: string, workspace: DockerWorkspace) => Promise<T>,
): Promise<T> {
  const folder = project();
  const workspace = workspaceOn(folder.path, options);
  try {
    await workspace.initialize();
    return await body(workspace.getBackend(), folder.path, workspace);
  } finally {
    await workspace.close();
    folder.remove();
  }
}

const sh = (backend: WorkspaceBackend, script: string, timeoutMs = 60_000) =>
  backend.exec(["bash", "-c", script], { cwd: backend.cwd, timeoutMs });

describe("DockerWorkspace", () => {
  it("runs a container per workspace with the project mounted at its path and no network, and removes it on close", async () => {
    const [first, second] = [project(), project()];
    const workspaces = [workspaceOn(first.path), workspaceOn(second.path)];
    await Promise.all(workspaces.map((workspace) => workspace.initialize()));
    const ids = workspaces.map((workspace) => workspace.container!);
    expect(new Set(ids).size).toBe(2);
    const inspected = await engine.api.json<{
      HostConfig: { NetworkMode: string; Binds: string[] };
      Config: { Labels: Record<string, string> };
    }>("GET", `/containers/${ids[0]}/json`);
    expect(inspected.HostConfig.NetworkMode).toBe("none");
    expect(inspected.HostConfig.Binds.some((bind) => bind.startsWith(`${first.path}:${first.path}`))).toBe(true);
    expect(inspected.Config.Labels["agent-tools.workspace"]).toBe(first.path);
    // No interface but loopback: the container reaches no network.
    expect((await sh(workspaces[0]!.getBackend(), "ls /sys/class/net")).stdout.trim().split("\n")).toEqual(["lo"]);

    await workspaces[0]!.close();
    expect(workspaces[0]!.container).toBeUndefined();
    expect((await engine.api.call("GET", `/containers/${ids[0]}/json`, {}, [200, 404])).status).toBe(404);
    expect((await engine.api.call("GET", `/containers/${ids[1]}/json`, {}, [200, 404])).status).toBe(200);
    const closedBackend = failure(() => workspaces[0]!.getBackend());
    expect((await closedBackend)?.code).toBe("WORKSPACE_CLOSED");
    await workspaces[1]!.close();
    first.remove();
    second.remove();
  });

  it("joins the engine's default network only with network: true, and tells Bash so", async () => {
    await withWorkspace({ network: true }, async (backend, _folder, workspace) => {
      const inspected = await engine.api.json<{ HostConfig: { NetworkMode: string } }>("GET", `/containers/${workspace.container}/json`);
      expect(inspected.HostConfig.NetworkMode).not.toBe("none");
      const interfaces = (await sh(backend, "ls /sys/class/net")).stdout.trim().split("\n");
      expect(interfaces).toContain("lo");
      expect(interfaces.length).toBeGreaterThan(1);
      expect(backend.confinement?.network).toBe(true);
    });
  });

  it("shows the container its own filesystem: the host only through the project folder", async () => {
    const hostOnly = join(realpathSync(tmpdir()), `agent-tools-host-only-${process.pid}`);
    writeFileSync(hostOnly, "host secret\n");
    try {
      await withWorkspace({}, async (backend, folder) => {
        expect((await sh(backend, `cat ${hostOnly}`)).exitCode).not.toBe(0);
        expect((await sh(backend, "ls /")).stdout.split("\n")).not.toContain("home");
        await sh(backend, "echo inside > /tmp/written-inside; echo project > made-in-container.txt");
        expect(existsSync("/tmp/written-inside")).toBe(false);
        expect(readFileSync(join(folder, "made-in-container.txt"), "utf8")).toBe("project\n");
        writeFileSync(join(folder, "made-on-host.txt"), "host\n");
        expect((await backend.readFile(join(folder, "made-on-host.txt"))).toString()).toBe("host\n");
        expect(backend.confinement).toMatchObject({ writableDirectories: [folder], network: false });
      });
    } finally {
      rmSync(hostOnly, { force: true });
    }
  });

  it("runs commands and file operations as the container's user, with that user's rights", async () => {
    const folder = project();
    chmodSync(folder.path, 0o777);
    const workspace = workspaceOn(folder.path, { user: "65534:65534" });
    try {
      await workspace.initialize();
      const backend = workspace.getBackend();
      expect((await sh(backend, "id -u; id -g")).stdout).toBe("65534\n65534\n");
      const refused = await failure(() => backend.writeFile("/etc/passwd", "nobody owns this\n"));
      expect(refused?.code).toBe("WORKSPACE_OPERATION_FAILED");
      expect(refused?.message).toMatch(/Cannot write \/etc\/passwd in container [0-9a-f]{12}: .*Permission denied/);
      expect((await backend.readFile("/etc/passwd")).toString()).toContain("root:x:0:0");
      await backend.writeFile(join(folder.path, "by-nobody.txt"), "mine\n");
      expect(statSync(join(folder.path, "by-nobody.txt")).uid).toBe(65534);
      const toolkit = new Toolkit({ tools: createBuiltinTools(["Write"], backend.cwd, { backend }) });
      const write = await runTool(toolkit, "Write", { file_path: "/etc/hostname-new", content: "x" });
      expect(write.state).toBe("error");
      expect(write.text).toMatch(/Permission denied/);
      // A setuid-root program (planted in the project by root on the host) runs with the user's rights.
      copyFileSync(execFileSync("bash", ["-c", "command -v id"], { encoding: "utf8" }).trim(), join(folder.path, "setuid-id"));
      chmodSync(join(folder.path, "setuid-id"), 0o4755);
      expect((await sh(backend, "./setuid-id -u")).stdout).toBe("65534\n");
      expect((await sh(backend, "cat /proc/self/status")).stdout).toMatch(/^NoNewPrivs:\s+1$/m);
    } finally {
      await workspace.close();
      folder.remove();
    }
  });

  it("kills a timed-out command's whole process group inside the container", async () => {
    await withWorkspace({}, async (backend) => {
      const timedOut = await sh(backend, "sleep 301 & sleep 302 & wait", 500);
      expect(timedOut).toMatchObject({ timedOut: true, exitCode: -1 });
      const left = (await sh(backend, "cat /proc/[0-9]*/cmdline")).stdout.replaceAll("\0", " ");
      expect(left).toContain("sleep 3600"); // the container's own keep-alive: the listing works
      expect(left).not.toMatch(/sleep 30[12]/);
    });
  });

  it("reports a command's exit status and stderr exactly, though this engine forgets an exec as soon as it ends", async () => {
    await withWorkspace({}, async (backend) => {
      expect(await sh(backend, "printf 'no newline' >&2; exit 7")).toMatchObject({ exitCode: 7, stderr: "no newline" });
      expect(
        await backend.exec(["bash", "-c", "echo 0123456789 >&2; exit 9"], { cwd: backend.cwd, timeoutMs: 60_000, maxOutputBytes: 4 }),
      ).toMatchObject({
        exitCode: 9,
        stderr: "0123",
      });
      expect((await backend.exec(["no-such-program"], { cwd: backend.cwd, timeoutMs: 60_000 })).exitCode).toBe(127);
    });
  });

  it("confines Bash: no sandbox of the tool's own, the container's filesystem, escapes refused", async () => {
    await withWorkspace({}, async (backend) => {
      const bash = new Bash({ backend });
      expect(bash.sandboxStatus).toMatchObject({
        sandboxed: true,
        confinedBy: expect.stringMatching(/^Docker container [0-9a-f]{12} \(sha256:/),
        network: false,
      });
      const toolkit = new Toolkit({ tools: [bash] });
      expect((await runTool(toolkit, "Bash", { command: "ls /usr/bin" })).text.split("\n")).toEqual(
        expect.arrayContaining(["bash", "sleep"]),
      );
      expect((await runTool(toolkit, "Bash", { command: "command -v bwrap || echo none" })).text).toBe("none\n");
      const escaping = await runTool(toolkit, "Bash", { command: "id", sandbox_escape: "unsandboxed" });
      expect(escaping).toMatchObject({
        state: "error",
        text: expect.stringContaining('sandbox_escape "unsandboxed" is not available: commands run in Docker container'),
      });
    });
  });

  it("mounts readOnlyDirectories at their host paths: a loaded skill's resources read in the container, never written", async () => {
    const skills = project();
    cpSync(SKILL_FIXTURES, skills.path, { recursive: true });
    const skill = join(skills.path, "release-notes");
    const resource = join(skill, "templates", "entry.md");
    try {
      await withWorkspace({ readOnlyDirectories: [skills.path] }, async (backend, folder) => {
        const permissions = new PermissionEngine({ workingDirectories: [folder] });
        const toolkit = new Toolkit({
          engine: permissions,
          tools: createBuiltinTools(["Read", "Bash"], backend.cwd, { backend }),
          skills: [skill],
        });
        const executor = toolkit.createExecutor();
        const [loaded] = await executor.runToCompletion([{ id: "s", name: "Skill", input: { skill: "release-notes" } }]);
        expect(loaded?.text).toContain(`Base directory for this skill: ${skill}`);
        const [read] = await executor.runToCompletion([{ id: "r", name: "Read", input: { file_path: resource } }]);
        expect(read?.state).toBe("success");
        expect(read?.text).toContain(`     1\t${readFileSync(resource, "utf8").split("\n")[0]}`);
        const written = await sh(backend, `echo changed > ${resource}; echo new > ${skill}/new.md`);
        expect(written.exitCode).not.toBe(0);
        expect(written.stderr).toMatch(/Read-only file system/);
        expect(existsSync(join(skill, "new.md"))).toBe(false);
        expect(readFileSync(resource, "utf8")).not.toBe("changed\n");
      });
      const relative = await failure(() => workspaceOn(skills.path, { readOnlyDirectories: ["skills"] }).initialize());
      expect(relative?.code).toBe("WORKSPACE_OPTIONS_INVALID");
      expect(relative?.message).toContain('readOnlyDirectories entry "skills" is not an absolute path to a folder');
    } finally {
      skills.remove();
    }
  });

  it("brings its own ripgrep into an image without one", async () => {
    await withWorkspace({}, async (backend, folder) => {
      expect((await sh(backend, "command -v rg || echo none")).stdout).toBe("none\n");
      writeFileSync(join(folder, "haystack.txt"), "needle\n");
      const toolkit = new Toolkit({ tools: createBuiltinTools(["Grep"], backend.cwd, { backend }) });
      expect((await runTool(toolkit, "Grep", { pattern: "needle" })).text).toBe(join(folder, "haystack.txt"));
    });
  });

  it("says what is wrong with the engine, the image and the options", async () => {
    const folder = project();
    try {
      const noEngine = await failure(() =>
        new DockerWorkspace({ image, projectDirectory: folder.path, engine: { socketPath: join(folder.path, "no.sock") } }).initialize(),
      );
      expect(noEngine?.code).toBe("DOCKER_ENGINE_UNAVAILABLE");
      expect(noEngine?.message).toContain(`unix://${join(folder.path, "no.sock")} cannot be reached`);
      const noImage = await failure(() => workspaceOn(folder.path, { image: "localhost/no-such-image:1" }).initialize());
      expect(noImage).toMatchObject({ code: "DOCKER_ENGINE_ERROR", status: 404 });
      expect(noImage?.message).toContain("pull it (docker pull localhost/no-such-image:1) or build it first");
      expect((await failure(() => new DockerWorkspace({ image: "" })))?.code).toBe("WORKSPACE_OPTIONS_INVALID");
      expect((await failure(() => new DockerWorkspace({ image, engine: { url: "https://engine:2376" } })))?.message).toMatch(
        /only plain http/,
      );
      // Nothing was left behind by the failed starts.
      expect(
        await engine.api.json<unknown[]>("GET", "/containers/json", {
          query: { all: true, filters: JSON.stringify({ label: [`agent-tools.workspace=${folder.path}`] }) },
        }),
      ).toEqual([]);
    } finally {
      folder.remove();
    }
  });
});
