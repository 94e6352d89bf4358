import { spawn } from "node:child_process";
import { copyFile, mkdir, readFile, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AgentTools, SandboxDeniedError } from "@agent-tools/sdk";
import { compileC } from "../../support/bundles.js";
import { processesMatching } from "../support/process-state.js";
import { writeSandboxTool } from "../support/sandbox-tools.js";
import { TempDirs } from "../support/temp-dirs.js";

/**
 * Hostile tools, each a real tool folder run through AgentTools twice: unsandboxed (`sandbox:
 * "off"`, the control: proves the attack works on this machine) and sandboxed (`required`: fails
 * loudly where bubblewrap is missing; CI installs it), where it must fail naming the capability.
 */
const temp = new TempDirs();
let dir: string;
let sandboxed: AgentTools;
let control: AgentTools;
let listener: Server;
let listenerPort: number;
const SECRET = "agent-secret-value-7f3a";
const previousSecret = process.env.AWS_SECRET_ACCESS_KEY;

beforeAll(async () => {
  dir = await temp.make();
  process.env.AWS_SECRET_ACCESS_KEY = SECRET;
  const limits = { processes: 32, memoryBytes: 512 * 1024 * 1024 };
  sandboxed = new AgentTools({ cacheDir: join(dir, "cache"), sandbox: "required", callTimeoutMs: 15_000, sandboxLimits: limits });
  control = new AgentTools({ cacheDir: join(dir, "cache"), sandbox: "off", callTimeoutMs: 15_000 });
  listener = createServer((socket) => socket.end("hello from the host\n"));
  await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
  listenerPort = (listener.address() as { port: number }).port;
});

afterAll(async () => {
  await Promise.all([sandboxed.close(), control.close()]);
  listener.close();
  if (previousSecret === undefined) delete process.env.AWS_SECRET_ACCESS_KEY;
  else process.env.AWS_SECRET_ACCESS_KEY = previousSecret;
  await temp.removeAll();
});

/** Adds the tool to both instances; returns the control's result and the sandboxed failure. */
async function attack(toolId: string, body: string, input: Record<string, unknown> = {}) {
  const path = await writeSandboxTool(dir, toolId, body);
  await Promise.all([sandboxed.add({ path }), control.add({ path })]);
  // Sandboxed first, so nothing the control run creates changes what the sandboxed run finds.
  const denied = await sandboxed.executeToolById(toolId, input).then(
    (value) => ({ value }),
    (error: unknown) => error,
  );
  const unsandboxed = await control.executeToolById(toolId, input);
  return { unsandboxed, denied };
}

function expectDenied(error: unknown, capability: string | RegExp): void {
  expect(error).toBeInstanceOf(SandboxDeniedError);
  const denied = error as SandboxDeniedError;
  if (typeof capability === "string") expect(denied.capability).toBe(capability);
  else expect(denied.capability).toMatch(capability);
  expect(denied.message).toContain(`lacks the capability ${denied.capability}`);
}

describe("a sandboxed tool cannot read the agent's secrets", () => {
  it("a private key in a home folder", async () => {
    const key = join(dir, "home", ".ssh", "id_rsa");
    await mkdir(join(dir, "home", ".ssh"), { recursive: true });
    await writeFile(key, "-----BEGIN OPENSSH PRIVATE KEY-----\n");
    const { unsandboxed, denied } = await attack("reads-key", "return open(input_data['path']).read()", { path: key });
    expect(unsandboxed).toContain("PRIVATE KEY");
    expectDenied(denied, `filesystem:${key}:read`);
    expect((denied as Error).message).toContain("tool_capabilities.filesystem");
  });

  it("/etc/shadow", async () => {
    const { unsandboxed, denied } = await attack("reads-shadow", "return open('/etc/shadow').read()");
    expect(unsandboxed).toMatch(/^root:/);
    expectDenied(denied, "filesystem:/etc/shadow:read");
  });

  it("the agent's AWS_SECRET_ACCESS_KEY, by name or in the whole environment", async () => {
    const { unsandboxed, denied } = await attack("reads-env", "import os\nreturn os.environ['AWS_SECRET_ACCESS_KEY']");
    expect(unsandboxed).toBe(SECRET);
    expectDenied(denied, "env:AWS_SECRET_ACCESS_KEY");
    const { unsandboxed: all, denied: scrubbed } = await attack("dumps-env", "import os\nreturn dict(os.environ)");
    expect(JSON.stringify(all)).toContain(SECRET);
    const env = (scrubbed as { value: Record<string, string> }).value;
    expect(JSON.stringify(env)).not.toContain(SECRET);
    expect(
      Object.keys(env).every((name) => /^(PATH|HOME|PWD|TMPDIR|AGENT_TOOLS_\w+|PYTHONIOENCODING|LANG\w*|LC_\w+|TZ|TERM)$/.test(name)),
    ).toBe(true);
  });

  it("another process's environment through /proc, or the host's files through /proc/self/root", async () => {
    // A process of the agent's user holding the secret in its environment.
    const holder = spawn("sleep", ["60"], { env: { ...process.env }, stdio: "ignore" });
    try {
      const { unsandboxed, denied } = await attack("proc-environ", "return open(input_data['path'], 'rb').read().decode('latin1')", {
        path: `/proc/${holder.pid}/environ`,
      });
      expect(unsandboxed).toContain(SECRET);
      expectDenied(denied, `filesystem:/proc/${holder.pid}/environ:read`);
    } finally {
      holder.kill();
    }
    const root = await attack("proc-root", "return open('/proc/self/root/etc/shadow').read()");
    expect(root.unsandboxed).toMatch(/^root:/);
    expectDenied(root.denied, "filesystem:/proc/self/root/etc/shadow:read");
  });
});

describe("a sandboxed tool writes only its own state folder", () => {
  it("a file outside is refused; the state folder is writable, kept across calls, removed with the tool", async () => {
    const outside = join(dir, "outside", "planted.txt");
    await mkdir(join(dir, "outside"));
    const { unsandboxed, denied } = await attack("writes-outside", "open(input_data['path'], 'w').write('x')\nreturn 'written'", {
      path: outside,
    });
    expect(unsandboxed).toBe("written");
    expectDenied(denied, `filesystem:${outside}:write`);
    const code = await attack(
      "writes-code",
      "import os\nopen(os.path.join(os.path.dirname(__file__), 'x.py'), 'w').write('x')\nreturn 'written'",
    );
    expect(code.unsandboxed).toBe("written");
    expectDenied(code.denied, /^filesystem:.*writes-code\/code\/x\.py:write$/);

    const path = await writeSandboxTool(
      dir,
      "keeps-state",
      "import os\nfile = os.path.join(os.environ['AGENT_TOOLS_STATE_DIR'], 'count')\nn " +
        "= int(open(file).read()) + 1 if os.path.exists(file) else 1\nopen(file, " +
        "'w').write(str(n))\nreturn [n, os.getcwd() == os.environ['AGENT_TOOLS_STATE_DIR']]",
    );
    await sandboxed.add({ path });
    expect(await sandboxed.executeToolById("keeps-state", {})).toEqual([1, true]);
    expect(await sandboxed.executeToolById("keeps-state", {})).toEqual([2, true]);
    const stateFile = join(dir, "cache", "state", "keeps-state", "count");
    expect(await readFile(stateFile, "utf8")).toBe("2");
    await sandboxed.remove("keeps-state");
    await expect(readFile(stateFile, "utf8")).rejects.toThrow(/ENOENT/);
  });
});

describe("a sandboxed tool has no network unless granted", () => {
  it("a listener on the agent's 127.0.0.1 is unreachable", async () => {
    const body =
      "import socket\nwith socket.create_connection(('127.0.0.1', input_data['port']), timeout=5) as s:\n    return s.recv(100).decode()";
    const { unsandboxed, denied } = await attack("connects-loopback", body, { port: listenerPort });
    expect(unsandboxed).toBe("hello from the host\n");
    expectDenied(denied, "network");
    expect((denied as Error).message).toContain("tool_capabilities.network");
  });
});

describe("a sandboxed tool is bounded", () => {
  let processLimitBinds = false;

  it("the process limit binds (checked with a bounded loop before any fork bomb runs)", async () => {
    const body = [
      "import subprocess",
      "children, refused = [], 0",
      "for _ in range(48):",
      "    try:",
      "        children.append(subprocess.Popen(['sleep', '30']))",
      "    except BlockingIOError:",
      "        refused += 1",
      "for child in children:",
      "    child.kill()",
      "    child.wait()",
      "return [len(children), refused]",
    ].join("\n");
    const path = await writeSandboxTool(dir, "bounded-spawn", body);
    await sandboxed.add({ path });
    const [started, refused] = (await sandboxed.executeToolById("bounded-spawn", {})) as [number, number];
    expect(started).toBeLessThan(32);
    expect(refused).toBeGreaterThan(0);
    processLimitBinds = true;
  });

  it("a fork bomb ends that tool with limits.processes, its processes die, and the tool still works afterwards", async () => {
    expect(processLimitBinds, "the bounded check above must pass before a fork bomb may run").toBe(true);
    const marker = `fork-bomb-${process.pid}`;
    const body =
      `import os, time\nif input_data.get('bomb'):\n    while True:\n        if os.fork() ` +
      `== 0:\n            os.execvp('sleep', ['sleep', '30', '${marker}'])\nreturn 'alive'`;
    const path = await writeSandboxTool(dir, "fork-bomb", body);
    await sandboxed.add({ path });
    const error = await sandboxed.executeToolById("fork-bomb", { bomb: true }).catch((caught: unknown) => caught);
    expectDenied(error, "limits.processes");
    expect((error as Error).message).toContain("sandboxLimits.processes");
    await expect.poll(() => processesMatching(marker, "cmdline").length, { timeout: 5_000 }).toBe(0);
    expect(await sandboxed.executeToolById("fork-bomb", {})).toBe("alive");
  });

  it("an unbounded allocation ends that tool with limits.memoryBytes", async () => {
    const body = "chunks = []\nwhile True:\n    chunks.append(bytearray(32 * 1024 * 1024))";
    const path = await writeSandboxTool(dir, "memory-hog", body);
    await sandboxed.add({ path });
    const error = await sandboxed.executeToolById("memory-hog", {}).catch((caught: unknown) => caught);
    expectDenied(error, "limits.memoryBytes");
  });
});

describe("no process outlives a sandboxed tool", () => {
  it("background children (Popen, setsid) die with remove() and close()", async () => {
    const marker = String(400_000 + (process.pid % 10_000));
    const body =
      `import subprocess\nsubprocess.Popen(['sleep', '${marker}'])\nsubprocess.Popen(['sleep', '${marker}'], ` +
      `start_new_session=True)\nsubprocess.Popen(['setsid', 'sleep', '${marker}'])\nreturn 'started'`;
    const path = await writeSandboxTool(dir, "leaves-children", body);
    await sandboxed.add({ path });
    expect(await sandboxed.executeToolById("leaves-children", {})).toBe("started");
    await expect.poll(() => processesMatching(`sleep\0${marker}`, "cmdline").length, { timeout: 3_000 }).toBe(3);
    await sandboxed.remove("leaves-children");
    await expect.poll(() => processesMatching(`sleep\0${marker}`, "cmdline").length, { timeout: 3_000 }).toBe(0);

    const own = new AgentTools({ cacheDir: join(dir, "cache"), sandbox: "required" });
    await own.add({ path });
    await own.executeToolById("leaves-children", {});
    await expect.poll(() => processesMatching(`sleep\0${marker}`, "cmdline").length, { timeout: 3_000 }).toBe(3);
    await own.close();
    await expect.poll(() => processesMatching(`sleep\0${marker}`, "cmdline").length, { timeout: 3_000 }).toBe(0);
  });

  it("a call's timeout kills the tool's whole tree, setsid children included", async () => {
    const marker = String(500_000 + (process.pid % 10_000));
    const body = `import subprocess, time\nsubprocess.Popen(['setsid', 'sleep', '${marker}'])\ntime.sleep(60)`;
    const path = await writeSandboxTool(dir, "hangs", body);
    const quick = new AgentTools({ cacheDir: join(dir, "cache"), sandbox: "required", callTimeoutMs: 1_500 });
    try {
      await quick.add({ path });
      await expect(quick.executeToolById("hangs", {})).rejects.toMatchObject({ code: "TOOL_TIMEOUT" });
      await expect.poll(() => processesMatching(`sleep\0${marker}`, "cmdline").length, { timeout: 3_000 }).toBe(0);
    } finally {
      await quick.close();
    }
  });

  it("a unix socket the agent listens on (a docker.sock stand-in) cannot be reached: no unix sockets without a network grant", async () => {
    const socketPath = join(dir, "agent-daemon.sock");
    const daemon = createServer((socket) => socket.end("daemon says hi\n"));
    await new Promise<void>((resolve) => daemon.listen(socketPath, resolve));
    try {
      const body = "import socket\ns = socket.socket(socket.AF_UNIX)\ns.connect(input_data['path'])\nreturn s.recv(100).decode()";
      const { unsandboxed, denied } = await attack("unix-client", body, { path: socketPath });
      expect(unsandboxed).toBe("daemon says hi\n");
      expectDenied(denied, "network");
      expect((denied as Error).message).toContain("unix sockets come with it");
    } finally {
      daemon.close();
    }
  });

  it.runIf(process.arch === "x64")("a 32-bit system call is killed by the filter, naming it", async () => {
    const toolDir = join(dir, "i386-syscall");
    await mkdir(join(toolDir, "code"), { recursive: true });
    await writeFile(join(toolDir, "spec.json"), JSON.stringify({ tool_id: "i386-syscall", tool_runtime_type: "binary" }));
    await copyFile(
      await compileC(join(import.meta.dirname, "../../fixtures/binaries/i386-syscall.c"), "i386-syscall"),
      join(toolDir, "code", "i386-syscall"),
    );
    await Promise.all([sandboxed.add({ path: toolDir }), control.add({ path: toolDir })]);
    expect(await control.executeToolById("i386-syscall", {})).toEqual({ pid_via_i386: 1 });
    const denied = await sandboxed.executeToolById("i386-syscall", {}).catch((error: unknown) => error);
    expectDenied(denied, "syscall");
  });

  it("the agent's process cannot be signalled", async () => {
    const { unsandboxed, denied } = await attack("signals-agent", "import os\nos.kill(input_data['pid'], 0)\nreturn 'reached'", {
      pid: process.pid,
    });
    expect(unsandboxed).toBe("reached");
    expectDenied(denied, "process:signal");
  });
});
