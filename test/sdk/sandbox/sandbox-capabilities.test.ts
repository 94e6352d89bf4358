import { mkdir, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AgentTools, PermissionEngine, PermissionMode, SandboxDeniedError } from "@agent-tools/sdk";
import type { CapabilityRequest } from "../../../sdk/src/sandbox/capabilities/capability-grants.js";
import { buildBundle, buildPythonToolZip } from "../../support/bundles.js";
import { startTestRegistry, uploadBundle, type TestRegistry } from "../../support/registry.js";
import { writeSandboxTool } from "../support/sandbox-tools.js";
import { TempDirs } from "../support/temp-dirs.js";

/** Declared capabilities, validated by the registry, granted through the permission engine, enforced by the sandbox. */
const temp = new TempDirs();
let dir: string;
let registry: TestRegistry;
let server: Server;
let port: number;
let otherServer: Server;
let otherPort: number;

const FETCH =
  "import urllib.request\nwith urllib.request.urlopen(input_data['url'], timeout=10) as response:\n    return response.read().decode()";

async function listen(answer: string): Promise<[Server, number]> {
  const http = createServer((_request, response) => response.end(answer));
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  return [http, (http.address() as { port: number }).port];
}

beforeAll(async () => {
  dir = await temp.make();
  registry = await startTestRegistry();
  [server, port] = await listen("granted host says hi");
  [otherServer, otherPort] = await listen("this must never be read");
});

afterAll(async () => {
  server.close();
  otherServer.close();
  await registry.close();
  await temp.removeAll();
});

async function publish(toolId: string, body: string, capabilities: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const toolDir = await writeSandboxTool(dir, toolId, body, capabilities as Record<string, unknown>);
  const spec = { tool_id: toolId, tool_runtime_type: "python", tool_metadata: { version: "1.0.0" }, tool_capabilities: capabilities };
  return uploadBundle(registry.url, registry.token, buildBundle({ spec, toolZip: buildPythonToolZip(toolDir), toolMd: `# ${toolId}\n` }));
}

describe("the registry validates tool_capabilities and shows it in the entry", () => {
  it("a valid manifest is normalised into the entry; a published version's manifest cannot change", async () => {
    const upload = await publish("net-tool", FETCH, {
      network: [`127.0.0.1:${port}`, "API.Example.com"],
      env: ["EXAMPLE_API_KEY"],
      filesystem: [{ path: "workspace", access: "read" }],
    });
    expect(upload.status).toBe(200);
    const entry = (await (await fetch(`${registry.url}/tools/net-tool`)).json()) as Record<string, unknown>;
    expect(entry.tool_capabilities).toEqual({
      network: [`127.0.0.1:${port}`, "api.example.com"],
      env: ["EXAMPLE_API_KEY"],
      filesystem: [{ path: "workspace", access: "read" }],
    });
    const put = await fetch(`${registry.url}/tools/net-tool`, {
      method: "PUT",
      headers: { authorization: `Bearer ${registry.token}`, "content-type": "application/json" },
      body: JSON.stringify({ tool_capabilities: { network: ["evil.example:443"] } }),
    });
    expect(put.status).toBe(422);
    expect(((await put.json()) as { detail: string }).detail).toContain("tool_capabilities cannot change");
  });

  it("a malformed manifest is a 422 listing every problem", async () => {
    const upload = await publish("bad-manifest", "return 1", {
      network: ["no spaces allowed", "host:99999"],
      env: ["PATH", "1BAD"],
      filesystem: [
        { path: "relative/dir", access: "read" },
        { path: "/data/../etc", access: "write" },
        { path: "/x", access: "all" },
      ],
      exec: true,
    });
    expect(upload.status).toBe(422);
    const detail = String(upload.body.detail);
    for (const problem of [
      "unknown keys exec",
      "network[0]",
      "is not one of 1-65535",
      "(PATH) is set by the sandbox",
      "env[1]",
      'filesystem[0] path must be "workspace"',
      'must not contain ".."',
      'access must be "read" or "write"',
    ]) {
      expect(detail).toContain(problem);
    }
    expect((await fetch(`${registry.url}/tools/bad-manifest`)).status).toBe(404);
  });
});

describe("capabilities are granted through the permission engine", () => {
  it("an allow rule grants one host through the filtering proxy; any other host is refused naming the capability", async () => {
    const permissions = new PermissionEngine({ allow: [`Capability(net-tool:network:127.0.0.1:${port})`] });
    const tools = new AgentTools({ toolsDbUrl: registry.url, cacheDir: join(dir, "cache"), sandbox: "required", permissions });
    try {
      expect(await tools.executeToolById("net-tool", { url: `http://127.0.0.1:${port}/` })).toBe("granted host says hi");
      const refused = await tools.executeToolById("net-tool", { url: `http://127.0.0.1:${otherPort}/` }).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(SandboxDeniedError);
      expect((refused as SandboxDeniedError).capability).toBe(`network:127.0.0.1:${otherPort}`);
      expect((refused as Error).message).toContain(`Capability(net-tool:network:127.0.0.1:${otherPort})`);
    } finally {
      await tools.close();
    }
  });

  it("an ASK names the capability; a remembered answer becomes a rule; without an answer nothing is granted", async () => {
    process.env.EXAMPLE_API_KEY = "key-for-the-tool";
    try {
      const toolDir = await writeSandboxTool(dir, "env-tool", "import os\nreturn os.environ.get('EXAMPLE_API_KEY')", {
        env: ["EXAMPLE_API_KEY"],
      });
      const asked: CapabilityRequest[] = [];
      const permissions = new PermissionEngine();
      const tools = new AgentTools({
        cacheDir: join(dir, "cache"),
        sandbox: "required",
        permissions,
        onCapabilityRequest: (request) => {
          asked.push(request);
          return { granted: true, remember: true };
        },
      });
      await tools.add({ path: toolDir });
      expect(await tools.executeToolById("env-tool", {})).toBe("key-for-the-tool");
      expect(asked.map((request) => [request.capability, request.kind])).toEqual([["env-tool:env:EXAMPLE_API_KEY", "env"]]);
      expect(asked[0]!.suggestions[0]).toMatchObject({ toolName: "Capability", ruleContent: "env-tool:env:EXAMPLE_API_KEY" });
      expect(permissions.listRules("allow").map((rule) => rule.ruleContent)).toEqual(["env-tool:env:EXAMPLE_API_KEY"]);
      await tools.close();

      const unanswered = new AgentTools({ cacheDir: join(dir, "cache"), sandbox: "required" });
      await unanswered.add({ path: toolDir });
      expect(await unanswered.executeToolById("env-tool", {})).toBeNull();
      await unanswered.close();

      const denied = new AgentTools({
        cacheDir: join(dir, "cache"),
        sandbox: "required",
        permissions: new PermissionEngine({ deny: ["Capability(env-tool:*)"], mode: PermissionMode.BYPASS }),
      });
      await denied.add({ path: toolDir });
      expect(await denied.executeToolById("env-tool", {})).toBeNull();
      await denied.close();
    } finally {
      delete process.env.EXAMPLE_API_KEY;
    }
  });

  it("a workspace read grant shows the working directories read-only, nothing else", async () => {
    const workspace = join(dir, "workspace");
    await mkdir(workspace);
    await writeFile(join(workspace, "notes.txt"), "workspace notes");
    const body =
      "import os\npath = os.path.join(input_data['dir'], 'notes.txt')\nif " +
      "input_data.get('write'):\n    open(path, 'w').write('x')\nreturn open(path).read()";
    const toolDir = await writeSandboxTool(dir, "reads-workspace", body, { filesystem: [{ path: "workspace", access: "read" }] });
    const tools = new AgentTools({
      cacheDir: join(dir, "cache"),
      sandbox: "required",
      workingDirectories: [workspace],
      permissions: new PermissionEngine({ allow: ["Capability(reads-workspace:filesystem:workspace:read)"] }),
    });
    try {
      await tools.add({ path: toolDir });
      expect(await tools.executeToolById("reads-workspace", { dir: workspace })).toBe("workspace notes");
      const write = await tools.executeToolById("reads-workspace", { dir: workspace, write: true }).catch((error: unknown) => error);
      expect((write as SandboxDeniedError).capability).toBe(`filesystem:${join(workspace, "notes.txt")}:write`);
    } finally {
      await tools.close();
    }
  });
});
