import { mkdir, readdir, symlink } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AgentTools, CapabilityPathRefusedError, PermissionEngine, SandboxDeniedError } from "@agent-tools/sdk";
import { writeSandboxTool } from "../support/sandbox-tools.js";
import { TempDirs } from "../support/temp-dirs.js";
import { runScenarioAs } from "./support/run-scenario.js";

/**
 * Hostile tools against the filtering proxy, run through AgentTools in the real sandbox: a tool
 * speaking raw bytes to its own proxy bridge, a tool granted a broad folder looking for another
 * tool's proxy socket (as the agent's own user, root in CI, and as an unprivileged user), and
 * grants aimed at the sockets' folder.
 */
const SCENARIO = fileURLToPath(new URL("./support/proxy-isolation-scenario.ts", import.meta.url));
const UNPRIVILEGED = 65534;
const temp = new TempDirs();
let dir: string;
let listener: Server;
let port: number;
let connections = 0;

beforeAll(async () => {
  dir = await temp.make();
  listener = createServer((_request, response) => response.end("granted host says hi"));
  listener.on("connection", () => connections++);
  await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
  port = (listener.address() as { port: number }).port;
});

afterAll(async () => {
  listener.close();
  await temp.removeAll();
});

/** Sends each target as `CONNECT <target>` through the tool's own bridge, byte for byte, and returns each status line. */
const RAW_CONNECT = `import os, socket
bridge = int(os.environ['HTTP_PROXY'].rsplit(':', 1)[1])
answers = []
for target in input_data['targets']:
    with socket.create_connection(('127.0.0.1', bridge), timeout=10) as s:
        s.sendall(('CONNECT ' + target + ' HTTP/1.1\\r\\n\\r\\n').encode('utf-8'))
        data = b''
        while b'\\r\\n' not in data:
            chunk = s.recv(4096)
            if not chunk:
                break
            data += chunk
        answers.append(data.split(b'\\r\\n')[0].decode('latin1'))
return answers`;

function engine(toolId: string): PermissionEngine {
  return new PermissionEngine({ allow: [`Capability(${toolId}:*)`] });
}

describe("a tool speaking raw bytes to its proxy reaches only what the parser accepts", () => {
  it(
    "NUL, %-encoding, IDN, short/octal/hex IPv4, IPv6 forms, userinfo " + "and label tricks are refused; the listener is never reached",
    async () => {
      const toolDir = await writeSandboxTool(dir, "raw-connect", RAW_CONNECT, {
        network: ["*.example.org", `*.example.org:${port}`, `127.0.0.1:${port}`],
      });
      const tools = new AgentTools({ cacheDir: join(dir, "cache"), sandbox: "required", permissions: engine("raw-connect") });
      try {
        await tools.add({ path: toolDir });
        const targets = [
          `127.0.0.1\0.example.org:${port}`,
          `127.0.0.1%00.example.org:${port}`,
          `localhost%2e.example.org:${port}`,
          `bücher.example.org:${port}`,
          `127.1:${port}`,
          `0177.0.0.1:${port}`,
          `0x7f.0.0.1:${port}`,
          `2130706433:${port}`,
          `[::ffff:127.0.0.1%25lo]:${port}`,
          `::1:${port}`,
          `me@127.0.0.1:${port}`,
          `127.0.0.1 .example.org:${port}`,
        ];
        const answers = (await tools.executeToolById("raw-connect", { targets })) as string[];
        expect(answers).toHaveLength(targets.length);
        for (const [index, answer] of answers.entries()) expect(answer, JSON.stringify(targets[index])).toMatch(/^HTTP\/1\.1 400 /);
        const labels = (await tools.executeToolById("raw-connect", {
          targets: [`evil-example.org:${port}`, `example.org:${port}`, `a.example.org.evil.test:${port}`, `[::ffff:7f00:1]:${port}`],
        })) as string[];
        for (const answer of labels) expect(answer).toMatch(/^HTTP\/1\.1 403 agent-tools sandbox: network:\S+ not granted/);
        expect(connections).toBe(0);
        // The granted literal itself still works through the same bridge.
        expect(await tools.executeToolById("raw-connect", { targets: [`127.0.0.1:${port}`] })).toEqual([
          "HTTP/1.1 200 Connection Established",
        ]);
        expect(connections).toBe(1);
      } finally {
        await tools.close();
      }
    },
  );

  it("a URL whose host only looks like a granted wildcard fails naming the capability it lacks", async () => {
    const body =
      "import urllib.request\nwith urllib.request.urlopen(input_data['url'], timeout=10) as response:\n    return response.read().decode()";
    const toolDir = await writeSandboxTool(dir, "wildcard-fetch", body, { network: [`*.example.org:${port}`] });
    const tools = new AgentTools({ cacheDir: join(dir, "cache"), sandbox: "required", permissions: engine("wildcard-fetch") });
    try {
      await tools.add({ path: toolDir });
      const error = await tools
        .executeToolById("wildcard-fetch", { url: `http://evil-example.org:${port}/` })
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(SandboxDeniedError);
      expect((error as SandboxDeniedError).capability).toBe(`network:evil-example.org:${port}`);
    } finally {
      await tools.close();
    }
  });
});

describe("a filesystem grant never shows the proxies' sockets folder", () => {
  it("the folder itself, a folder inside it, or a link leading into it is refused, naming the grant", async () => {
    const cacheDir = join(dir, "grant-cache");
    const proxies = join(cacheDir, "proxies");
    const link = join(dir, "innocent-looking");
    await mkdir(proxies, { recursive: true });
    await symlink(proxies, link);
    for (const [toolId, path] of [
      ["grants-root", proxies],
      ["grants-inside", join(proxies, "p-guess")],
      ["grants-link", link],
    ] as const) {
      const toolDir = await writeSandboxTool(dir, toolId, "return 'ran'", { filesystem: [{ path, access: "read" }] });
      const tools = new AgentTools({ cacheDir, sandbox: "required", permissions: engine(toolId) });
      try {
        await tools.add({ path: toolDir });
        const error = await tools.executeToolById(toolId, {}).catch((caught: unknown) => caught);
        expect(error, toolId).toBeInstanceOf(CapabilityPathRefusedError);
        expect((error as CapabilityPathRefusedError).capability).toBe(`filesystem:${path}:read`);
        expect((error as Error).message).toContain("the folder of the filtering proxies' sockets");
      } finally {
        await tools.close();
      }
    }
  });
});

interface ScenarioResult {
  fetched: string;
  socket: string;
  sandboxed: { listing: string[]; answer: string };
  control: { listing: string[]; answer: string };
}

/** Runs the isolation scenario as `uid` (undefined: as this process's own user). */
async function scenario(uid: number | undefined): Promise<ScenarioResult> {
  const folder = await temp.make("proxy-isolation-");
  const result = await runScenarioAs<ScenarioResult>(uid, SCENARIO, folder, [String(port)]);
  // The proxy's folder went with its AgentTools.
  expect(await readdir(join(folder, "work", "cache", "proxies"))).toEqual([]);
  return result;
}

function expectIsolated(result: ScenarioResult): void {
  expect(result.fetched).toBe("granted host says hi");
  // The control has the agent's authority: it finds the socket, and the proxy still refuses it without the tool's token.
  expect(result.control.listing).toContain(join(result.socket.split("/").at(-2)!, "proxy.sock"));
  expect(result.control.answer).toMatch(/^HTTP\/1\.1 407 /);
  // Sandboxed, the folder is empty and the socket is not there to connect to; a tool without a
  // network grant cannot even make a unix socket (the system-call filter).
  expect(result.sandboxed.listing).toEqual([]);
  expect(result.sandboxed.answer).toMatch(/^(FileNotFoundError|PermissionError): /);
}

describe("one tool's sandbox cannot reach another tool's proxy", () => {
  it("as the agent's own user (root in CI)", async () => {
    expectIsolated(await scenario(undefined));
  });

  it("as an unprivileged user", async () => {
    expectIsolated(await scenario(process.getuid?.() === 0 ? UNPRIVILEGED : undefined));
  });
});
