import { afterAll, describe, expect, it } from "vitest";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { Bash, Toolkit } from "@agent-tools/sdk";
import { MAX_OUTPUT_CHARACTERS } from "../../../sdk/src/builtin/bash/bash-output.js";
import { runTool, temporaryDirectory } from "./support.js";

const project = temporaryDirectory("builtin-bash-tool-");
afterAll(() => project.remove());

const toolkit = new Toolkit({ tools: [new Bash({ cwd: project.path })] });
const run = (input: Record<string, unknown>) => runTool(toolkit, "Bash", input);
// The process-group kill of the plain backend (the sandbox's pid namespace is tested in bash-sandbox.test.ts).
const unsandboxed = new Toolkit({ tools: [new Bash({ cwd: project.path, sandbox: "off" })] });

/** A killed process may linger as a zombie until its parent reaps it: that counts as dead. */
function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}

describe("Bash tool execution", () => {
  it("runs the command with bash in the tool's cwd and returns stdout then stderr", async () => {
    const response = await run({ command: "pwd; echo out; echo err >&2; [[ -n bash ]] && echo is-bash" });
    expect(response.state).toBe("success");
    expect(response.text).toBe(`${project.path}\nout\nis-bash\n\nerr\n`);
  });

  it("reports a non-zero exit as an error with both streams", async () => {
    const response = await run({ command: "echo partial; echo broken >&2; exit 3" });
    expect(response.state).toBe("error");
    expect(response.text).toBe("Command failed: echo partial; echo broken >&2; exit 3\n\nStdout:\npartial\n\nStderr:\nbroken\n");
  });

  it("kills the whole process group on timeout", async () => {
    const pidFile = join(project.path, "child.pid");
    const response = await runTool(unsandboxed, "Bash", { command: `sleep 30 & echo $! > ${pidFile}; wait`, timeout: 300 });
    expect(response.state).toBe("error");
    expect(response.text).toBe(`Command timed out after 300ms: sleep 30 & echo $! > ${pidFile}; wait`);
    const child = Number(readFileSync(pidFile, "utf8"));
    for (let attempt = 0; attempt < 50 && isAlive(child); attempt += 1) await sleep(20);
    expect(isAlive(child)).toBe(false);
  });

  it("caps the output at 30000 characters", async () => {
    const response = await run({ command: "head -c 40000 /dev/zero | tr '\\0' a" });
    expect(response.text).toHaveLength(MAX_OUTPUT_CHARACTERS + "\n... (output truncated)".length);
    expect(response.text.endsWith("\n... (output truncated)")).toBe(true);
  });

  it("does not keep cd between calls", async () => {
    await run({ command: "cd / && pwd" });
    expect((await run({ command: "pwd" })).text).toBe(`${project.path}\n`);
  });

  it("starts background commands and returns at once with the log path", async () => {
    const response = await run({ command: "echo started; sleep 0.1; echo done > finished.txt", run_in_background: true });
    expect(response.state).toBe("success");
    const logPath = /written to (.*)\.$/.exec(response.text)?.[1];
    expect(logPath).toBeDefined();
    // The shell creates finished.txt before writing to it: wait for the content, not the file.
    const finished = join(project.path, "finished.txt");
    const readFinished = () => (existsSync(finished) ? readFileSync(finished, "utf8") : "");
    for (let attempt = 0; attempt < 500 && readFinished() !== "done\n"; attempt += 1) await sleep(20);
    expect(readFinished()).toBe("done\n");
    expect(readFileSync(logPath!, "utf8")).toBe("started\n");
    rmSync(dirname(logPath!), { recursive: true, force: true });
  });

  it("rejects an empty command", async () => {
    expect((await run({ command: "  " })).state).toBe("error");
  });

  it("reads files written by earlier calls (a real shell, real files)", async () => {
    writeFileSync(join(project.path, "data.txt"), "b\na\n");
    expect((await run({ command: "sort data.txt" })).text).toBe("a\nb\n");
  });
});
