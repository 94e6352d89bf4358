/**
 * A real Docker Engine API for tests: Debian's Podman serving its Docker-compatible API on a unix
 * socket in a temp folder, with its own storage there (nothing of the machine's containers or
 * images is seen or touched), and a test image built from this machine's own programs, since no
 * image registry is reachable:
 *
 *   const engine = await startPodmanEngine();
 *   const image = await engine.buildImage(["bash", "cat", "stat", "find", "mkdir", "sleep", "id"]);
 *   new DockerWorkspace({ image, engine: { socketPath: engine.socketPath } });
 *   await engine.close();
 *
 * Needs root and the packages `podman` and `runc`, and `netavark` and `iptables` for
 * `network: true` (`.ci/run` installs them). The engine's settings are this machine's needs, not
 * the workspace's: runc, because crun refuses hybrid cgroup hierarchies; cgroupfs, as there is no
 * systemd; open-file and process limits at or under the agent's, which a container may not raise
 * without CAP_SYS_RESOURCE.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { existsSync, lstatSync, readFileSync, readlinkSync, realpathSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { writeTar, type TarInputEntry } from "../../sdk/src/archive/tar-writer.js";
import { DockerEngine } from "../../sdk/src/builtin/workspace/docker/docker-engine.js";

export interface PodmanEngine {
  socketPath: string;
  /** The engine's API, for tests that look at containers themselves. */
  api: DockerEngine;
  /** Imports a root filesystem holding these programs (found on PATH), their libraries and `/tmp`; returns the image id. */
  buildImage(programs: readonly string[]): Promise<string>;
  close(): Promise<void>;
}

const READY_TIMEOUT_MS = 60_000;

export async function startPodmanEngine(): Promise<PodmanEngine> {
  for (const program of ["podman", "runc"]) {
    if (!onPath(program))
      throw new Error(
        `${program} is not installed: the Docker workspace tests need a real engine (apt-get install podman runc; .ci/run does).`,
      );
  }
  const dir = await mkdtemp(join(tmpdir(), "agent-tools-podman-"));
  const socketPath = join(dir, "engine.sock");
  const conf = join(dir, "containers.conf");
  await writeFile(
    conf,
    [
      "[containers]",
      'default_ulimits = ["nofile=4096:4096", "nproc=4096:4096"]',
      "[engine]",
      'cgroup_manager = "cgroupfs"',
      'events_logger = "file"',
      'runtime = "runc"',
      // Podman keeps a process per finished exec for 5 minutes by default, to answer for its exit code.
      "exit_command_delay = 0",
      "",
    ].join("\n"),
  );
  const storage = ["--root", join(dir, "storage"), "--runroot", join(dir, "run"), "--storage-driver", "vfs"];
  const service = spawn("podman", [...storage, "--log-level=error", "system", "service", "--time=0", `unix://${socketPath}`], {
    env: { ...process.env, CONTAINERS_CONF: conf, TMPDIR: dir },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let log = "";
  service.stderr?.on("data", (chunk: Buffer) => (log += chunk.toString()));
  const api = new DockerEngine({ socketPath });
  try {
    await waitForEngine(api, service, () => log);
  } catch (error) {
    await stop(service);
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    socketPath,
    api,
    buildImage: async (programs) => {
      const answer = await api.call("POST", "/images/create", {
        query: { fromSrc: "-", repo: "localhost/agent-tools-workspace-test", tag: "latest" },
        bytes: writeTar(rootFilesystem(programs)),
        contentType: "application/x-tar",
      });
      const id = /sha256:[0-9a-f]{64}/.exec(answer.body.toString("utf8"))?.[0];
      if (id === undefined) throw new Error(`the engine did not import the image: ${answer.body.toString("utf8")}`);
      return id;
    },
    close: async () => {
      // Containers a failed test left behind would outlive the service otherwise.
      const left = await api.json<{ Id: string }[]>("GET", "/containers/json", { query: { all: true } }).catch(() => []);
      await Promise.all(left.map(({ Id }) => api.call("DELETE", `/containers/${Id}`, { query: { force: true } }, [200, 204, 404])));
      await stop(service);
      await rm(dir, { recursive: true, force: true });
    },
  };
}

function onPath(program: string): boolean {
  return (process.env.PATH ?? "").split(":").some((folder) => folder !== "" && existsSync(join(folder, program)));
}

async function waitForEngine(api: DockerEngine, service: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    if (service.exitCode !== null) throw new Error(`podman system service exited with ${service.exitCode}: ${log()}`);
    try {
      await api.call("GET", "/_ping");
      return;
    } catch (error) {
      if (Date.now() > deadline)
        throw new Error(`podman system service did not answer in ${READY_TIMEOUT_MS} ms: ${log()}`, { cause: error });
      await new Promise((done) => setTimeout(done, 100));
    }
  }
}

async function stop(service: ChildProcess): Promise<void> {
  if (service.exitCode !== null || service.signalCode !== null) return;
  const exited = new Promise((done) => service.once("exit", done));
  service.kill("SIGTERM");
  await exited;
}

/**
 * The programs as this machine has them: each file under its real path, every link on the way to
 * it (`/bin` → `usr/bin`, `/bin/sh` → `dash`) as a link, and the shared libraries `ldd` names;
 * `/bin/sh` always, since the engine starts the container with it;
 * then the folders a Linux container expects, `/tmp` world-writable, and root and nobody accounts.
 */
function rootFilesystem(programs: readonly string[]): TarInputEntry[] {
  const entries = new Map<string, TarInputEntry>();
  const addPath = (path: string): void => {
    let current = "";
    for (const segment of path.split("/").filter(Boolean)) {
      current = `${current}/${segment}`;
      const stat = lstatSync(current);
      if (entries.has(current.slice(1))) {
        if (stat.isSymbolicLink()) return addPath(resolve(dirname(current), readlinkSync(current)) + path.slice(current.length));
        continue;
      }
      if (stat.isSymbolicLink()) {
        entries.set(current.slice(1), { path: current.slice(1), type: "symlink", linkTarget: readlinkSync(current) });
        return addPath(resolve(dirname(current), readlinkSync(current)) + path.slice(current.length));
      }
      if (stat.isDirectory()) entries.set(current.slice(1), { path: current.slice(1), type: "directory" });
      else entries.set(current.slice(1), { path: current.slice(1), data: readFileSync(current), mode: stat.mode & 0o7777 });
    }
  };
  // Merged /usr (Debian 12): /bin, /lib, ... are links into /usr, and /bin/sh is what engines start.
  for (const top of ["bin", "sbin", "lib", "lib64"]) if (existsSync(`/${top}`)) addPath(`/${top}`);
  addPath("/bin/sh");
  for (const program of programs) {
    const path = execFileSync("bash", ["-c", 'command -v -- "$1"', "bash", program], { encoding: "utf8" }).trim();
    addPath(path);
    const libraries = execFileSync("ldd", [realpathSync(path)], { encoding: "utf8" }).match(/\/\S+/g) ?? [];
    for (const library of libraries) addPath(library);
  }
  for (const folder of ["etc", "root", "proc", "dev", "sys", "tmp"]) {
    if (!entries.has(folder)) entries.set(folder, { path: folder, type: "directory", mode: folder === "tmp" ? 0o1777 : 0o755 });
  }
  entries.set("etc/passwd", {
    path: "etc/passwd",
    data: "root:x:0:0:root:/root:/bin/bash\nnobody:x:65534:65534:nobody:/nonexistent:/bin/sh\n",
  });
  entries.set("etc/group", { path: "etc/group", data: "root:x:0:\nnogroup:x:65534:\n" });
  return [...entries.values()];
}
