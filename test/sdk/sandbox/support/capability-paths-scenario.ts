/**
 * Filesystem capability grants aimed where no tool may look, judged on the host at grant time:
 * run as its own process (`node --import tsx capability-paths-scenario.ts <folder>`) so the test
 * can start it as root and as an unprivileged user. Links planted to `/`, `/dev/shm` and the home
 * folder, a folder inside the SDK's cache, and a link to an ordinary folder holding a `.env`.
 * Prints one JSON document: per tool, its error, or what it read through the real path and the link.
 */
import { homedir } from "node:os";
import { mkdir, realpath, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { AgentTools, type AgentToolsError, PermissionEngine } from "@agent-tools/sdk";
import { writeSandboxTool } from "../../support/sandbox-tools.js";

const [folder] = process.argv.slice(2) as [string];
const cacheDir = join(folder, "cache");
const data = join(folder, "data");
await mkdir(join(cacheDir, "trees"), { recursive: true });
await mkdir(data, { recursive: true });
await writeFile(join(data, "notes.txt"), "visible");
await writeFile(join(data, ".env"), "API_TOKEN=hunter2");
const links = { "planted-root": "/", "planted-shm": "/dev/shm", "planted-home": homedir(), "data-link": data };
for (const [name, target] of Object.entries(links)) await symlink(target, join(folder, name));

const READ = `out = {}
for path in input_data['paths']:
    try:
        with open(path) as handle:
            out[path] = handle.read()
    except OSError as error:
        out[path] = type(error).__name__
return out`;

const grants: Record<string, { path: string; access: "read" | "write" }> = {
  "grants-root": { path: join(folder, "planted-root"), access: "read" },
  "grants-shm": { path: join(folder, "planted-shm"), access: "write" },
  "grants-home": { path: join(folder, "planted-home"), access: "read" },
  "grants-cache": { path: join(cacheDir, "trees"), access: "read" },
  "grants-data": { path: join(folder, "data-link"), access: "read" },
};
const permissions = new PermissionEngine({ allow: ["Capability"] });
const tools = new AgentTools({ cacheDir, sandbox: "required", permissions, callTimeoutMs: 20_000 });
const results: Record<string, { read: Record<string, string> } | { code: string; message: string }> = {};
try {
  for (const [toolId, grant] of Object.entries(grants))
    await tools.add({ path: await writeSandboxTool(folder, toolId, READ, { filesystem: [grant] }) });
  const realData = await realpath(data);
  for (const toolId of Object.keys(grants)) {
    const paths = [join(realData, "notes.txt"), join(realData, ".env"), join(folder, "data-link", "notes.txt")];
    try {
      results[toolId] = { read: (await tools.executeToolById(toolId, { paths })) as Record<string, string> };
    } catch (error) {
      results[toolId] = { code: (error as AgentToolsError).code, message: (error as Error).message };
    }
  }
  process.stdout.write(JSON.stringify({ results, realData }));
} finally {
  await tools.close();
}
