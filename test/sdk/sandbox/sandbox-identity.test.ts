import { spawn } from "node:child_process";
import { chmod, chown, mkdtemp, open, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { KNOBS } from "./support/kernel-knob-paths.js";

/**
 * Who a sandboxed process is (docs/sandbox.md#a-root-agent): never host root, no capabilities, no
 * new privileges, no user namespaces of its own, no kernel knob writable, no descriptor of the
 * agent's. The probe runs in a process of its own, once as the agent's own user (root in CI) and
 * once as an unprivileged user, with a secret file open on an inherited descriptor.
 */
const PROBE = fileURLToPath(new URL("./support/identity-probe.ts", import.meta.url));
const REPO_ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const INHERITED_FD = 27;
const SECRET = "inherited-descriptor-secret-5c1e";
const UNPRIVILEGED = 65534;
const folders: string[] = [];

afterAll(async () => {
  await Promise.all(folders.map((folder) => rm(folder, { recursive: true, force: true })));
});

interface ProbeResult {
  python: {
    uid: number;
    euid: number;
    gid: number;
    groups: number[];
    caps: Record<string, string>;
    noNewPrivs: string;
    knobs: Record<string, string>;
    userNamespace: string;
    leaked: string;
  };
  bash: string;
  control: string;
}

/** Runs the probe as `uid` (undefined: as this process's own user) and returns what it saw and who owns its file. */
async function probe(uid: number | undefined): Promise<{ result: ProbeResult; hostOwner: number }> {
  const folder = await mkdtemp(join(tmpdir(), "sandbox-identity-"));
  folders.push(folder);
  const secretFile = join(folder, "secret.txt");
  const secret = await open(secretFile, "w+");
  await secret.write(SECRET, 0); // positioned: the shared offset stays at 0 for the readers
  if (uid !== undefined) {
    await chown(folder, uid, uid);
    await chmod(secretFile, 0o600); // root's: only the inherited descriptor reads it
  }
  const stdio: ("ignore" | "pipe" | number)[] = ["ignore", "pipe", "pipe", ...Array(INHERITED_FD - 2).fill("ignore")];
  stdio[INHERITED_FD] = secret.fd;
  const prefix = uid === undefined ? [] : ["/usr/bin/setpriv", `--reuid=${uid}`, `--regid=${uid}`, "--clear-groups"];
  const argv = [...prefix, process.execPath, "--import", "tsx", PROBE, folder, String(INHERITED_FD)];
  const env = uid === undefined ? process.env : { PATH: "/usr/local/bin:/usr/bin:/bin", HOME: folder };
  const child = spawn(argv[0]!, argv.slice(1), { cwd: REPO_ROOT, stdio, env });
  let stdout = "";
  let stderr = "";
  child.stdout!.setEncoding("utf8").on("data", (text: string) => (stdout += text));
  child.stderr!.setEncoding("utf8").on("data", (text: string) => (stderr += text));
  const code = await new Promise<number | null>((resolve) => child.once("close", resolve));
  await secret.close();
  expect(code, stderr).toBe(0);
  const hostOwner = (await stat(join(folder, "project", "made-by-sandbox.txt"))).uid;
  return { result: JSON.parse(stdout) as ProbeResult, hostOwner };
}

function expectContained({ python, bash, control }: ProbeResult): void {
  expect(control).toBe(SECRET); // the descriptor really was inherited without close-on-exec
  for (const id of [python.uid, python.euid, python.gid]) expect(id).not.toBe(0);
  expect(python.groups).not.toContain(0);
  expect(Object.values(python.caps)).toEqual(Array(5).fill("0000000000000000"));
  expect(python.noNewPrivs).toBe("1");
  for (const path of KNOBS) expect(python.knobs[path]).not.toBe("written");
  expect(python.userNamespace).not.toBe("created");
  expect(python.leaked).not.toContain(SECRET);

  expect(bash).toMatch(/^uid=(\d+) gid=(\d+)$/m);
  expect(bash).not.toMatch(/^uid=0 |gid=0$/m);
  expect(bash).toMatch(/^CapEff:\s+0{16}$/m);
  expect(bash).toMatch(/^CapBnd:\s+0{16}$/m);
  expect(bash).toMatch(/^NoNewPrivs:\s+1$/m);
  // A program in the sandbox starts with no signal ignored (an inherited SIG_IGN for SIGPIPE breaks pipelines).
  expect(bash).toMatch(/^SigIgn:\s+0{16}$/m);
  expect(bash).not.toContain("written");
  expect(bash).not.toContain(SECRET);
  expect(bash).toContain("not-leaked");
  expect(bash).toContain("userns-refused");
  expect(bash).not.toMatch(/^inside-owner=0$/m);
}

describe("a sandboxed process is never a privileged one", () => {
  it("as the agent's own user (root in CI): an unprivileged uid inside, root's files stay root's", async () => {
    const { result, hostOwner } = await probe(undefined);
    expectContained(result);
    // What the sandbox writes in a working directory belongs to the agent, as if it had written it.
    expect(hostOwner).toBe(process.getuid!());
  });

  it("as an unprivileged user", async () => {
    const uid = process.getuid!() === 0 ? UNPRIVILEGED : undefined;
    const { result, hostOwner } = await probe(uid);
    expectContained(result);
    expect(hostOwner).toBe(uid ?? process.getuid!());
  });
});
