import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Bash, createBuiltinTools, SandboxUnavailableError, Toolkit } from "@agent-tools/sdk";
import { BubblewrapPlatform } from "../../../sdk/src/sandbox/bubblewrap-platform.js";
import { processesMatching } from "../support/process-state.js";
import { loopbackListener, runTool, temporaryDirectory } from "./support.js";

const project = temporaryDirectory("builtin-bash-sandbox-");
// Outside the working directory and outside /tmp (which the sandbox replaces with a private one),
// wherever the repository itself lives (a checkout under /tmp would be hidden too).
// Readable by everyone, like most of a machine: a root agent's commands run as an unprivileged user.
const outside = mkdtempSync("/var/tmp/bash-sandbox-outside-");
chmodSync(outside, 0o755);
let listener: Awaited<ReturnType<typeof loopbackListener>>;
let port: number;

beforeAll(async () => {
  listener = await loopbackListener();
  port = listener.port;
});

afterAll(() => {
  listener.close();
  project.remove();
  rmSync(outside, { recursive: true, force: true });
});

const sandboxed = new Bash({ cwd: project.path, sandbox: "required" });
const run = (bash: Bash, command: string, timeout?: number) =>
  runTool(new Toolkit({ tools: [bash] }), "Bash", { command, ...(timeout === undefined ? {} : { timeout }) });

describe("Bash in the sandbox", () => {
  it("says it is sandboxed, and what it may write and reach", () => {
    expect(sandboxed.sandboxed).toBe(true);
    expect(sandboxed.sandboxStatus).toMatchObject({ sandboxed: true, network: false, unavailableReason: undefined });
    expect(sandboxed.sandboxStatus.writableDirectories).toHaveLength(1);
    expect(new Bash({ cwd: project.path }).sandboxed).toBe(true); // "auto" is the default
    expect((createBuiltinTools(["Bash"], project.path)[0] as Bash).sandboxed).toBe(true); // agent-tools mcp --builtin Bash
    expect(new Bash({ cwd: project.path, sandbox: "off" }).sandboxed).toBe(false);
  });

  it("writes inside the working directory; everything else is read-only; /tmp is private", async () => {
    const inside = await run(sandboxed, "echo kept > made-inside.txt && cat made-inside.txt");
    expect(inside).toMatchObject({ state: "success", text: "kept\n" });
    expect(readFileSync(join(project.path, "made-inside.txt"), "utf8")).toBe("kept\n");

    const target = join(outside, "planted.txt");
    const refused = await run(sandboxed, `echo x > ${target}`);
    expect(refused.state).toBe("error");
    // Refused either way: read-only where the host is bound, absent where it is under the private
    // /tmp, and for a root agent also not the sandbox user's to write.
    expect(refused.text).toMatch(/Read-only file system|No such file or directory|Permission denied/);
    expect(existsSync(target)).toBe(false);
    const control = await run(new Bash({ cwd: project.path, sandbox: "off" }), `echo x > ${target} && echo written`);
    expect(control.text).toBe("written\n");

    expect((await run(sandboxed, `cat ${target}`)).text).toBe("x\n"); // reading stays possible
    const scratch = `bash-sandbox-scratch-${process.pid}`;
    expect((await run(sandboxed, `echo t > /tmp/${scratch} && cat /tmp/${scratch}`)).text).toBe("t\n");
    expect(existsSync(join("/tmp", scratch))).toBe(false);
  });

  it("has no network unless allowed", async () => {
    const probe = `exec 3<>/dev/tcp/127.0.0.1/${port} && head -1 <&3`;
    const offline = await run(sandboxed, probe);
    expect(offline.state).toBe("error");
    expect(offline.text).toMatch(/Connection refused|Network is unreachable/);
    const online = new Bash({ cwd: project.path, sandbox: { mode: "required", network: true } });
    expect(online.sandboxStatus.network).toBe(true);
    expect((await run(online, probe)).text).toBe("reached\n");
  });

  it("a timeout ends the whole tree, setsid children included", async () => {
    const marker = String(600_000 + (process.pid % 10_000));
    const running = run(sandboxed, `setsid sleep ${marker} & sleep ${marker}`, 1_500);
    await expect.poll(() => processesMatching(`sleep\0${marker}`, "cmdline").length, { timeout: 3_000 }).toBe(2);
    expect((await running).state).toBe("error");
    await expect.poll(() => processesMatching(`sleep\0${marker}`, "cmdline").length, { timeout: 3_000 }).toBe(0);
  });
});

describe("Bash sandbox modes where bubblewrap is missing", () => {
  const platform = () => new BubblewrapPlatform(join(outside, "no-such-bwrap"));

  it("auto warns once with the reason and runs unsandboxed; required refuses", async () => {
    const warnings: string[] = [];
    const auto = new Bash({
      cwd: project.path,
      sandbox: { mode: "auto", platform: platform(), onWarning: (message) => warnings.push(message) },
    });
    expect(auto.sandboxed).toBe(false);
    expect(auto.sandboxStatus.unavailableReason).toMatch(/bubblewrap \(bwrap\) is not installed/);
    expect(warnings).toEqual([expect.stringMatching(/Bash commands run WITHOUT a sandbox: .*To fix: install it/)]);
    const target = join(outside, "auto-written.txt");
    expect((await run(auto, `echo y > ${target} && echo written`)).text).toBe("written\n");
    expect(() => new Bash({ cwd: project.path, sandbox: { mode: "required", platform: platform() } })).toThrow(SandboxUnavailableError);
  });
});
