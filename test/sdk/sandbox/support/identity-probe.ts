/**
 * Probes who a sandboxed process is, from inside: run as its own process (`node --import tsx
 * identity-probe.ts <folder> <fd>`) so the identity-probe test can start it as root and as an
 * unprivileged user, with a descriptor `<fd>` inherited without close-on-exec. Prints one JSON
 * document: what a sandboxed Python tool and a sandboxed Bash command each saw.
 *
 * The kernel-knob probes write every file back with the value it already holds, so even a sandbox
 * that failed would change nothing on the machine.
 */
import { spawnSync } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { AgentTools, Bash } from "@agent-tools/sdk";
import { writeSandboxTool } from "../../support/sandbox-tools.js";
import { KNOBS } from "./kernel-knob-paths.js";

const PYTHON_PROBE = `import ctypes, os
status = dict(line.split(":", 1) for line in open("/proc/self/status").read().splitlines() if ":" in line)
def write_same(path):
    try:
        value = open(path).read()
    except OSError as error:
        return "unreadable: " + error.strerror
    try:
        with open(path, "w") as target:
            target.write(value)
        return "written"
    except OSError as error:
        return error.strerror
ids = {"uid": os.getuid(), "euid": os.geteuid(), "gid": os.getgid(), "groups": os.getgroups()}
libc = ctypes.CDLL(None, use_errno=True)
created = libc.unshare(0x10000000) == 0
fd = int(input_data["fd"])
try:
    leaked = os.read(fd, 100).decode()
except OSError as error:
    leaked = error.strerror
return {
    **ids,
    "caps": {name: status[name].strip() for name in ("CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb")},
    "noNewPrivs": status["NoNewPrivs"].strip(),
    "knobs": {path: write_same(path) for path in input_data["knobs"]},
    "userNamespace": "created" if created else os.strerror(ctypes.get_errno()),
    "leaked": leaked,
}`;

function bashProbe(fd: number): string {
  const knobs = KNOBS.map(
    (path) => `v=$(cat ${path} 2>&1) && { printf '%s\\n' "$v" > ${path} && echo "${path} written" || echo "${path} refused"; }`,
  );
  return [
    "echo uid=$(id -u) gid=$(id -g)",
    "grep -E '^(CapEff|CapBnd|NoNewPrivs|SigIgn)' /proc/self/status",
    ...knobs,
    `cat <&${fd} 2>/dev/null && echo leaked || echo not-leaked`,
    "unshare -U true 2>/dev/null && echo userns-created || echo userns-refused",
    "echo made > made-by-sandbox.txt && stat -c 'inside-owner=%u' made-by-sandbox.txt",
  ].join("\n");
}

async function main(): Promise<void> {
  const [folder, fdText] = process.argv.slice(2);
  if (folder === undefined || fdText === undefined) throw new Error("usage: identity-probe.ts <folder> <inherited fd>");
  const fd = Number(fdText);
  const project = join(folder, "project");
  await mkdir(project, { recursive: true });
  await writeFile(join(project, "README"), "a project\n");
  const tools = new AgentTools({ cacheDir: join(folder, "cache"), sandbox: "required", callTimeoutMs: 20_000 });
  try {
    await tools.add({ path: await writeSandboxTool(folder, "identity", PYTHON_PROBE) });
    const python = await tools.executeToolById("identity", { knobs: KNOBS, fd });
    const bash = new Bash({ cwd: project, sandbox: "required" });
    const chunk = await bash.call({ command: bashProbe(fd) });
    const text = chunk.content.map((block) => ("text" in block ? block.text : "")).join("");
    // The control: an ordinary child of this process does receive the descriptor.
    const control = spawnSync("bash", ["-c", `cat <&${fd}`], { encoding: "utf8" }).stdout;
    process.stdout.write(JSON.stringify({ python, bash: text, control }));
  } finally {
    await tools.close();
  }
}

await main();
