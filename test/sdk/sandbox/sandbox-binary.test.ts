import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { readFileSync, readlinkSync } from "node:fs";
import { basename, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { AgentTools, PermissionEngine, SandboxDeniedError, ToolTimeoutError } from "@agent-tools/sdk";
import { LAUNCHER_ALTERED_ENV, launcherKeepsEnvironment } from "../../../sdk/src/runtimes/binary/launcher-environment.js";
import { LAUNCHER_SHELL, launcherArgv } from "../../../sdk/src/runtimes/binary/launcher-script.js";
import { HOSTILE_OUTPUT_SOURCE, writeHostileBinaryTool } from "../runtimes/support/hostile-binary-tool.js";
import { compileC } from "../../support/bundles.js";
import { processesMatching } from "../support/process-state.js";
import { TempDirs } from "../support/temp-dirs.js";

/**
 * A sandboxed binary tool's calls go to one warm sandbox per tool (docs/sandbox.md#binary-tools):
 * each call sees what a sandbox of its own would show it, the sandbox lives like a Python worker,
 * and a call that times out or hits a limit gets a clean sandbox for the next one.
 */
const temp = new TempDirs();
const dir = await temp.make();
afterAll(() => temp.removeAll());

/** The bash launchers serving the tool folder `toolDir`, found from outside by their command line (bubblewrap's carry it too). */
const launchersOf = (toolDir: string) =>
  processesMatching(`agent-tools-binary-launcher\0${toolDir}/code/hostile\0`, "cmdline").filter((pid) => {
    try {
      return basename(readlinkSync(`/proc/${pid}/exe`)) === "bash" && !isCallSubshell(pid);
    } catch {
      return false;
    }
  });

/** A call's own bash (the launcher forks one per call) has the launcher as its parent. */
function isCallSubshell(pid: number): boolean {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const parent = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
  return basename(readlinkSync(`/proc/${parent}/exe`)) === "bash";
}

interface ProcessView {
  env: string[];
  cwd: string;
  limits: string[];
  signals: string[];
  stdin_is_null: boolean;
}

describe("a warm sandbox gives each call what a sandbox of its own gives it", () => {
  it("the same environment, working directory, limits and signal dispositions", async () => {
    const cacheDir = join(dir, "same-view");
    // TMOUT is one of the variables bash would act on: granted, the tool runs in a sandbox per call.
    const toolDir = await writeHostileBinaryTool(dir, "viewer", { env: ["PROBE_VALUE", "TMOUT"] });
    const previous = { PROBE_VALUE: process.env.PROBE_VALUE, TMOUT: process.env.TMOUT };
    Object.assign(process.env, { PROBE_VALUE: "a value with spaces, $dollars and 'quotes'", TMOUT: "1" });
    const allow = (...names: string[]) => new PermissionEngine({ allow: names.map((name) => `Capability(viewer:env:${name})`) });
    const warm = new AgentTools({ cacheDir, sandbox: "required", permissions: allow("PROBE_VALUE") });
    const perCall = new AgentTools({ cacheDir, sandbox: "required", permissions: allow("PROBE_VALUE", "TMOUT") });
    try {
      await Promise.all([warm.add({ path: toolDir }), perCall.add({ path: toolDir })]);
      const seenWarm = (await warm.executeToolById("viewer", { attack: "dump" })) as ProcessView;
      expect(launchersOf(toolDir)).toHaveLength(1);
      await warm.close();
      await expect.poll(() => launchersOf(toolDir).length, { timeout: 3_000 }).toBe(0);
      const seenAlone = (await perCall.executeToolById("viewer", { attack: "dump" })) as ProcessView;
      expect(launchersOf(toolDir)).toHaveLength(0);

      expect(seenAlone.env).toContain("TMOUT=1");
      expect(seenWarm.env.sort()).toEqual(seenAlone.env.filter((entry) => entry !== "TMOUT=1").sort());
      expect(seenWarm.env).toContain(`PROBE_VALUE=${process.env.PROBE_VALUE}`);
      expect(seenWarm.env).toContain(`PWD=${toolDir}`);
      expect(seenWarm.env.some((entry) => /^(SHLVL|OLDPWD|_)=/.test(entry))).toBe(false);
      expect(seenWarm.cwd).toBe(toolDir);
      expect(seenWarm.cwd).toBe(seenAlone.cwd);
      expect(seenWarm.limits).toEqual(seenAlone.limits);
      expect(seenWarm.signals).toEqual(seenAlone.signals);
      expect(seenWarm.stdin_is_null).toBe(true);
    } finally {
      await Promise.all([warm.close(), perCall.close()]);
      for (const [name, value] of Object.entries(previous)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  });

  it("every variable bash knows is either handed on unchanged by the launcher or listed as one it alters", async () => {
    const known = await bashOutput(["--norc", "-p", "-c", "compgen -v"]);
    const extras = ["OLDPWD", "TMOUT", "POSIXLY_CORRECT", "ENV", "CDPATH", "GLOBIGNORE", "EXECIGNORE", "PS0", "PS3", "HISTFILE"];
    const names = [...new Set([...known.split("\n").filter(Boolean), ...extras])];
    const unlisted = names.filter((name) => launcherKeepsEnvironment({ [name]: "x" }));
    expect(unlisted).toEqual(expect.arrayContaining(["PATH", "HOSTNAME", "TERM"]));
    expect(names.length - unlisted.length).toBeGreaterThan(20);
    for (const entry of LAUNCHER_ALTERED_ENV) expect(entry.reason.length).toBeGreaterThan(10);

    // The real launcher, unsandboxed (the program it runs only reports its environment), given all
    // of them and PWD as bubblewrap sets it.
    const outbox = join(dir, "launcher-outbox");
    const env = { ...Object.fromEntries(unlisted.map((name, index) => [name, `value-${index} with spaces`])), PWD: outbox };
    const id = "0f0e0d0c-0000-4000-8000-000000000001";
    await mkdir(join(outbox, id), { recursive: true });
    await writeFile(join(outbox, id, "request.json"), JSON.stringify({ input: { attack: "dump" } }));
    const [shell, ...args] = launcherArgv(await compileC(HOSTILE_OUTPUT_SOURCE, "hostile-output"), outbox);
    const launcher = spawn(shell!, args, { env, cwd: outbox, stdio: ["pipe", "pipe", "inherit"] });
    let replies = "";
    launcher.stdout.setEncoding("utf8").on("data", (text: string) => (replies += text));
    launcher.stdin.write(`run ${id}\n`);
    await expect.poll(() => replies, { timeout: 5_000 }).toMatch(new RegExp(`done ${id} 0\n`));
    launcher.stdin.end();
    await once(launcher, "exit");
    const seen = JSON.parse(await readFile(join(outbox, id, "output.json"), "utf8")) as ProcessView;
    expect(seen.env.sort()).toEqual(
      Object.entries(env)
        .map(([name, value]) => `${name}=${value}`)
        .sort(),
    );
  });
});

describe("the launcher runs nothing of the tool's but the tool", () => {
  it("a ~/.bashrc the tool plants in its state folder (its HOME) is never read by a later launcher", async () => {
    const toolDir = await writeHostileBinaryTool(dir, "bashrc");
    const cacheDir = join(dir, "bashrc-cache");
    const first = new AgentTools({ cacheDir, sandbox: "required" });
    await first.add({ path: toolDir });
    expect(await first.executeToolById("bashrc", { attack: "plant-bashrc" })).toEqual({ planted: true });
    await first.close();
    const stateDir = join(cacheDir, "state", "bashrc");
    expect(await readFile(join(stateDir, ".bashrc"), "utf8")).toContain("sourced");
    const second = new AgentTools({ cacheDir, sandbox: "required" });
    try {
      await second.add({ path: toolDir });
      expect(await second.executeToolById("bashrc", { attack: "ok", value: 1 })).toEqual({ ok: true, value: 1 });
      await expect(readFile(join(stateDir, "sourced"), "utf8")).rejects.toThrow(/ENOENT/);
    } finally {
      await second.close();
    }
  });
});

describe("a warm sandbox lives as a Python worker does", () => {
  it("starts on the first call, serves the next ones, stops when idle and starts again; close() ends it", async () => {
    const toolDir = await writeHostileBinaryTool(dir, "lifetime");
    const tools = new AgentTools({ cacheDir: join(dir, "lifetime-cache"), sandbox: "required", workerIdleTimeoutMs: 400 });
    try {
      await tools.add({ path: toolDir });
      expect(launchersOf(toolDir)).toEqual([]);
      const firstCalls = [1, 2, 3].map((value) => tools.executeToolById("lifetime", { attack: "ok", value }));
      expect(await Promise.all(firstCalls)).toEqual([1, 2, 3].map((value) => ({ ok: true, value })));
      const [first, ...others] = launchersOf(toolDir);
      expect(first).toBeDefined();
      expect(others).toEqual([]); // calls arriving together share the one they started
      expect(await tools.executeToolById("lifetime", { attack: "ok", value: 2 })).toEqual({ ok: true, value: 2 });
      expect(launchersOf(toolDir)).toEqual([first]);
      await expect.poll(() => launchersOf(toolDir).length, { timeout: 5_000 }).toBe(0);
      expect(await tools.executeToolById("lifetime", { attack: "ok", value: 3 })).toEqual({ ok: true, value: 3 });
      expect(launchersOf(toolDir)).toHaveLength(1);
      expect(launchersOf(toolDir)).not.toEqual([first]);
    } finally {
      await tools.close();
    }
    expect(launchersOf(toolDir)).toEqual([]);
  });

  it("a call that times out loses only its own processes: a call running beside it finishes", async () => {
    const toolDir = await writeHostileBinaryTool(dir, "beside");
    const tools = new AgentTools({ cacheDir: join(dir, "beside-cache"), sandbox: "required", callTimeoutMs: 1_500 });
    try {
      await tools.add({ path: toolDir });
      const stuck = tools.executeToolById("beside", { attack: "never" }).catch((error: unknown) => error);
      await new Promise((resolve) => setTimeout(resolve, 700));
      // Starts before the first times out and ends after it, in the same sandbox.
      const beside = tools.executeToolById("beside", { attack: "ok", value: 5, sleep_ms: 1_200 });
      expect(await stuck).toBeInstanceOf(ToolTimeoutError);
      expect(await beside).toEqual({ ok: true, value: 5 });
      expect(await tools.executeToolById("beside", { attack: "ok", value: 6 })).toEqual({ ok: true, value: 6 });
    } finally {
      await tools.close();
    }
  });
});

describe("limits in a warm sandbox", () => {
  it("CPU seconds and file size end the call naming the limit, and the next call gets a clean sandbox", async () => {
    const toolDir = await writeHostileBinaryTool(dir, "limited");
    const tools = new AgentTools({
      cacheDir: join(dir, "limited-cache"),
      sandbox: "required",
      callTimeoutMs: 20_000,
      sandboxLimits: { cpuSeconds: 1, fileSizeBytes: 1024 * 1024 },
    });
    try {
      await tools.add({ path: toolDir });
      expect(await tools.executeToolById("limited", { attack: "ok", value: 1 })).toEqual({ ok: true, value: 1 });
      const [before] = launchersOf(toolDir);
      const cpu = await tools.executeToolById("limited", { attack: "spin" }).catch((error: unknown) => error);
      expect(cpu).toBeInstanceOf(SandboxDeniedError);
      expect(cpu).toMatchObject({ capability: "limits.cpuSeconds" });
      expect((cpu as Error).message).toContain("sandboxLimits.cpuSeconds");
      const size = await tools.executeToolById("limited", { attack: "huge", bytes: 2 * 1024 * 1024 }).catch((error: unknown) => error);
      expect(size).toMatchObject({ capability: "limits.fileSizeBytes" });
      expect(await tools.executeToolById("limited", { attack: "ok", value: 2 })).toEqual({ ok: true, value: 2 });
      expect(launchersOf(toolDir)).not.toContain(before);
    } finally {
      await tools.close();
    }
  });
});

async function bashOutput(args: string[]): Promise<string> {
  const child = spawn(LAUNCHER_SHELL, args, { env: {}, stdio: ["ignore", "pipe", "inherit"] });
  let text = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (text += chunk));
  await once(child, "close");
  return text;
}
