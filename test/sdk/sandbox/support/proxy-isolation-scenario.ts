/**
 * One tool's proxy, seen by another tool: run as its own process (`node --import tsx
 * proxy-isolation-scenario.ts <folder> <port>`) so the proxy-isolation test can start it as root
 * and as an unprivileged user. The tool `net-owner` is granted `127.0.0.1:<port>` and so gets a
 * filtering proxy; the tool `snoop` is granted read access to the folder holding the cache folder
 * (where the proxies' sockets live: the cache itself is never granted, docs/sandbox.md#capability-paths)
 * and looks for that proxy's socket, then connects to it and asks for the granted host. Prints one JSON
 * document: what the owner fetched, and what `snoop` saw sandboxed
 * and unsandboxed (the control, which has the agent's authority).
 */
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { AgentTools, PermissionEngine } from "@agent-tools/sdk";
import { writeSandboxTool } from "../../support/sandbox-tools.js";

const [folder, port] = process.argv.slice(2) as [string, string];
const work = join(folder, "work");
const cacheDir = join(work, "cache");

const FETCH =
  "import urllib.request\nwith urllib.request.urlopen(input_data['url'], timeout=10) as response:\n    return response.read().decode()";
const SNOOP = `import os, socket
listing = []
for root, dirs, files in os.walk(input_data['proxies']):
    listing += [os.path.relpath(os.path.join(root, name), input_data['proxies']) for name in dirs + files]
try:
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
        s.settimeout(10)
        s.connect(input_data['socket'])
        s.sendall(('CONNECT 127.0.0.1:' + str(input_data['port']) + ' HTTP/1.1\\r\\n\\r\\n').encode())
        answer = s.recv(200).decode('latin1').split('\\r\\n')[0]
except OSError as error:
    answer = type(error).__name__ + ': ' + str(error.strerror)
return {'listing': sorted(listing), 'answer': answer}`;

const permissions = new PermissionEngine({ allow: ["Capability(net-owner:*)", "Capability(snoop:*)"] });
const sandboxed = new AgentTools({ cacheDir, sandbox: "required", permissions, callTimeoutMs: 20_000 });
const control = new AgentTools({ cacheDir, sandbox: "off", callTimeoutMs: 20_000 });
try {
  const owner = await writeSandboxTool(folder, "net-owner", FETCH, { network: [`127.0.0.1:${port}`] });
  const snoop = await writeSandboxTool(folder, "snoop", SNOOP, { filesystem: [{ path: work, access: "read" }] });
  await Promise.all([sandboxed.add({ path: owner }), sandboxed.add({ path: snoop }), control.add({ path: snoop })]);
  const fetched = await sandboxed.executeToolById("net-owner", { url: `http://127.0.0.1:${port}/` });
  const proxies = join(cacheDir, "proxies");
  const [ownFolder] = await readdir(proxies);
  const input = { proxies, socket: join(proxies, ownFolder!, "proxy.sock"), port: Number(port) };
  const seen = { sandboxed: await sandboxed.executeToolById("snoop", input), control: await control.executeToolById("snoop", input) };
  process.stdout.write(JSON.stringify({ fetched, socket: input.socket, ...seen }));
} finally {
  await Promise.all([sandboxed.close(), control.close()]);
}
