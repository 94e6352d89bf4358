import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { Bash, SandboxedLocalWorkspace, Toolkit } from "../../../../../sdk/src/index.js";

/**
 * What a SandboxedLocalWorkspace lets a command do, run for real (bubblewrap): shared by the test
 * (as whoever runs it, root in CI) and a child it starts as an unprivileged user (`setpriv`):
 * `node --import tsx this-file <root>` prints the results as JSON. `<root>/project` is the project,
 * `<root>/outside` a folder beside it; the secret holds `CANARY-…`.
 */
export interface WorkspaceScenario {
  uid: number;
  /** What a command wrote inside the project and outside it, and whether the files appeared. */
  writeInside: { exitCode: number; created: boolean };
  writeOutside: { exitCode: number; created: boolean; stderr: string };
  /** A connection to a listener on the agent's 127.0.0.1. */
  loopback: { exitCode: number; stdout: string };
  /** `cat .env` of the project's secret. */
  secret: string;
  /** `printenv` in the sandbox, with a token in the agent's environment. */
  environment: string;
  /** The Bash tool on the workspace's backend: its status, and a command's output through it. */
  bash: { sandboxed: boolean; confinedBy: string | undefined; writable: readonly string[]; output: string };
}

export async function runWorkspaceScenario(root: string): Promise<WorkspaceScenario> {
  const project = join(root, "project");
  const outside = join(root, "outside");
  mkdirSync(project, { recursive: true });
  mkdirSync(outside, { recursive: true });
  writeFileSync(join(project, ".env"), "TOKEN=CANARY-project-env\n");
  const listener = createServer((socket) => socket.end("reached\n"));
  await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
  const port = (listener.address() as { port: number }).port;
  process.env.GITHUB_TOKEN = "CANARY-agent-token";
  const workspace = new SandboxedLocalWorkspace({ projectDirectory: project });
  try {
    await workspace.initialize();
    const backend = workspace.getBackend();
    const sh = (script: string) => backend.exec(["bash", "-c", script], { cwd: project, timeoutMs: 30_000 });
    const inside = await sh("echo x > inside.txt");
    const outsideRun = await sh(`echo x > ${outside}/outside.txt`);
    const loopback = await sh(`exec 3<>/dev/tcp/127.0.0.1/${port} && cat <&3`);
    const bash = new Bash({ backend });
    const toolkit = new Toolkit({ tools: [bash] });
    const stream = toolkit.callTool({ id: "1", name: "Bash", input: { command: "echo through-the-tool" } });
    let step = await stream.next();
    while (!step.done) step = await stream.next();
    return {
      uid: process.getuid?.() ?? -1,
      writeInside: { exitCode: inside.exitCode, created: existsSync(join(project, "inside.txt")) },
      writeOutside: { exitCode: outsideRun.exitCode, created: existsSync(join(outside, "outside.txt")), stderr: outsideRun.stderr },
      loopback: { exitCode: loopback.exitCode, stdout: loopback.stdout },
      secret: (await sh("cat .env")).stdout,
      environment: (await sh("printenv")).stdout,
      bash: {
        sandboxed: bash.sandboxStatus.sandboxed,
        confinedBy: bash.sandboxStatus.confinedBy,
        writable: bash.sandboxStatus.writableDirectories,
        output: step.value.text,
      },
    };
  } finally {
    delete process.env.GITHUB_TOKEN;
    listener.close();
    await workspace.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  process.stdout.write(JSON.stringify(await runWorkspaceScenario(process.argv[2]!)));
}
