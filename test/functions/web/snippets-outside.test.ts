/**
 * Every snippet of a tool's catalogue page, pasted as a user outside this checkout would: into a
 * fresh folder in the temp dir, with an npm of its own (an empty cache and user config, no npm_*
 * variables, no PATH entry from the checkout), so the SDK and CLI can only come from the running
 * registry's `/sdk/<file>` and their dependencies from the npm registry. Each snippet must run and
 * print what the same call gives through this checkout's SDK; the install is recorded in the
 * lockfile with the registry's URL and the integrity `GET /sdk` states.
 */
import { execFile, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { once } from "node:events";
import { chown, mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { inspect, promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ElicitRequestSchema, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { AgentTools } from "../../../sdk/src/agent-tools.js";
import { fixtureBundle } from "../../support/bundles.js";
import { startTestRegistry, uploadBundle, type TestRegistry } from "../../support/registry.js";
import { TempDirs } from "../../sdk/support/temp-dirs.js";
import { UNPRIVILEGED_UID } from "../../sdk/support/tool-run-as-user.js";

const run = promisify(execFile);
const REPO_ROOT = new URL("../../../", import.meta.url).pathname.replace(/\/$/, "");
const temp = new TempDirs();
let registry: TestRegistry;
let project: string;
let userEnv: Record<string, string>;
let snippets: Record<string, string>;
let sdk: { url: string; integrity: string; file: string };
/** What the page's example input gives, called through this checkout's SDK. */
let expected: Record<string, unknown>;

/** The text a copy button copies: the `<code id=…>` element's text (JSX escapes these five characters). */
function snippetsOf(html: string): Record<string, string> {
  const found: Record<string, string> = {};
  for (const [, id, text] of html.matchAll(/<code id="(snippet-[a-z]+)">([\s\S]*?)<\/code>/g)) {
    found[id!] = text!
      .replaceAll("&lt;", "<")
      .replaceAll("&gt;", ">")
      .replaceAll("&quot;", '"')
      .replaceAll("&#39;", "'")
      .replaceAll("&amp;", "&");
  }
  return found;
}

/** A shell in the fresh folder, as the user's terminal. */
async function shell(script: string, timeout = 240_000): Promise<string> {
  const { stdout } = await run("sh", ["-ec", script], { cwd: project, env: userEnv, timeout, maxBuffer: 16 * 1024 * 1024 });
  return stdout;
}

/** A user's npm and tool cache under `home`, and a PATH with nothing from this checkout. */
function terminalEnv(home: string): Record<string, string> {
  const path = (process.env.PATH ?? "")
    .split(":")
    .filter((entry) => entry && !entry.startsWith(REPO_ROOT))
    .join(":");
  return {
    PATH: path,
    HOME: home,
    TMPDIR: process.env.TMPDIR ?? "/tmp",
    LANG: "C.UTF-8",
    npm_config_cache: join(home, ".npm"),
    npm_config_userconfig: join(home, ".npmrc"),
    npm_config_update_notifier: "false",
    AGENT_TOOLS_CACHE_DIR: join(home, ".cache", "agent-tools"),
  };
}

beforeAll(async () => {
  // The registry packs sdk/dist: build it from this checkout's source first (as `npm ci` does).
  await run("npx", ["tsc", "-p", "sdk/tsconfig.build.json"], { cwd: REPO_ROOT }).catch(() => undefined);
  registry = await startTestRegistry();
  expect((await uploadBundle(registry.url, registry.token, (await fixtureBundle("text-stats")).bundle)).status).toBe(200);
  sdk = (await (await fetch(`${registry.url}/sdk`)).json()) as typeof sdk;
  snippets = snippetsOf(await (await fetch(`${registry.url}/t/text-stats`)).text());

  const home = await temp.make("agent-tools-user-home-");
  project = join(await temp.make("agent-tools-user-project-"), "my-agent");
  await mkdir(project);
  await writeFile(join(home, ".npmrc"), "");
  userEnv = terminalEnv(home);

  const tools = new AgentTools({ toolsDbUrl: registry.url, cacheDir: await temp.make() });
  try {
    await tools.add("text-stats@1.0.0");
    expected = (await tools.executeToolById("text-stats", exampleInput())) as Record<string, unknown>;
  } finally {
    await tools.close();
  }
}, 300_000);

afterAll(async () => {
  await registry?.close();
  await temp.removeAll();
});

/** The input the page's snippets call the tool with (the same in every snippet: the SDK one is read back). */
function exampleInput(): Record<string, unknown> {
  const match = /executeToolById\("text-stats", (\{.*\})\);/.exec(snippets["snippet-sdk"] ?? "");
  expect(match, snippets["snippet-sdk"]).not.toBeNull();
  return JSON.parse(match![1]!) as Record<string, unknown>;
}

describe("a tool page's snippets, pasted outside the checkout", () => {
  it("offers install, SDK, CLI, MCP and curl snippets, every install from this registry's /sdk", () => {
    expect(Object.keys(snippets)).toEqual(["snippet-install", "snippet-sdk", "snippet-cli", "snippet-mcp", "snippet-curl"]);
    expect(sdk.url).toBe(`${registry.url}/sdk/${sdk.file}`);
    for (const id of ["snippet-install", "snippet-cli", "snippet-mcp"]) expect(snippets[id], id).toContain(sdk.url);
    expect(Object.values(snippets).join("\n")).not.toMatch(/(?<![\w/.-])@agent-tools\/sdk@|-p @agent-tools\/sdk/);
    expect(exampleInput()).toEqual({ text: expect.any(String) });
  });

  it("installs the SDK from the registry with npm, recorded with the registry's URL and integrity", async () => {
    await shell(snippets["snippet-install"]!);
    const lock = JSON.parse(await readFile(join(project, "package-lock.json"), "utf8")) as {
      packages: Record<string, { resolved?: string; integrity?: string; version?: string }>;
    };
    expect(lock.packages["node_modules/@agent-tools/sdk"]).toMatchObject({ resolved: sdk.url, integrity: sdk.integrity });
  }, 300_000);

  it("runs the SDK snippet saved as example.mjs with plain node", async () => {
    await writeFile(join(project, "example.mjs"), snippets["snippet-sdk"]!);
    expect((await shell("node example.mjs")).trim()).toBe(inspect(expected));
  }, 120_000);

  it("runs the CLI snippet with nothing installed globally: the run prints the result, get and versions the entry", async () => {
    const [runLine, getLine, versionsLine] = snippets["snippet-cli"]!.split("\n");
    expect(JSON.parse(await shell(runLine!))).toEqual(expected);
    expect(await shell(getLine!)).toContain("text-stats");
    expect(await shell(versionsLine!)).toContain("1.0.0");
  }, 300_000);

  it("serves the tool to an MCP client started exactly as the host config says", async () => {
    const config = JSON.parse(snippets["snippet-mcp"]!) as { mcpServers: Record<string, { command: string; args: string[] }> };
    const server = config.mcpServers["text-stats"]!;
    const client = new Client({ name: "pasted-host", version: "1.0.0" }, { capabilities: { elicitation: { form: {} } } });
    const asked: string[] = [];
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      asked.push(String((request.params as { message?: string }).message));
      return { action: "accept", content: { decision: "allow_once" } };
    });
    const transport = new StdioClientTransport({ command: server.command, args: server.args, cwd: project, env: userEnv, stderr: "pipe" });
    let stderr = "";
    transport.stderr?.on("data", (data: Buffer) => (stderr += data.toString()));
    try {
      await client.connect(transport);
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(["text-stats"]);
      const result = (await client.callTool({ name: "text-stats", arguments: exampleInput() })) as CallToolResult;
      expect(result.isError, stderr).toBeUndefined();
      expect(result.structuredContent).toEqual(expected);
      expect(asked).toHaveLength(1); // the registry tool runs third-party code: the user was asked
    } finally {
      await client.close();
    }
  }, 300_000);

  it("downloads the archive with the curl snippet and checks its sha256 with shasum", async () => {
    const output = await shell(snippets["snippet-curl"]!);
    expect(output).toContain('"tool_id":"text-stats"');
    expect(output).toMatch(/^text-stats-1\.0\.0\.zip: OK$/m);
  }, 60_000);

  it("gets the tarball itself with the integrity npm would check", async () => {
    const response = await fetch(sdk.url);
    expect(response.status).toBe(200);
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(`sha512-${createHash("sha512").update(bytes).digest("base64")}`).toBe(sdk.integrity);
    // The packed package is the SDK: its package.json, its CLI, its Python worker.
    const listing = await new Promise<string>((resolve, reject) => {
      const tar = spawn("tar", ["-tzf", "-"]);
      let out = "";
      tar.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
      tar.on("error", reject);
      tar.on("close", () => resolve(out));
      tar.stdin.end(bytes);
    });
    expect(listing.split("\n")).toEqual(
      expect.arrayContaining(["package/package.json", "package/bin/agent-tools.js", "package/python/agent_tools_worker.py"]),
    );
  });
});

/**
 * Users paste these as themselves, not only as root: the CLI and the MCP server fetched by npx into
 * an unprivileged user's own npm cache, the tool run (its Python worker, its sandbox) as that user.
 */
describe("the same snippets, pasted by an unprivileged user", () => {
  let as: { home: string; project: string; env: Record<string, string> };

  beforeAll(async () => {
    const root = await temp.make("agent-tools-nobody-");
    as = { home: join(root, "home"), project: join(root, "my-agent"), env: terminalEnv(join(root, "home")) };
    await Promise.all([mkdir(as.home), mkdir(as.project)]);
    await writeFile(join(as.home, ".npmrc"), "");
    for (const owned of [root, as.home, as.project, join(as.home, ".npmrc")]) await chown(owned, UNPRIVILEGED_UID, UNPRIVILEGED_UID);
  });

  const asUser = (command: string[]) => [
    "setpriv",
    `--reuid=${UNPRIVILEGED_UID}`,
    `--regid=${UNPRIVILEGED_UID}`,
    "--clear-groups",
    "--",
    ...command,
  ];

  it("runs the CLI snippet's run line: the result the checkout's SDK gives", async () => {
    const [runLine] = snippets["snippet-cli"]!.split("\n");
    const [command, ...args] = asUser(["sh", "-ec", runLine!]);
    const { stdout } = await run(command!, args, { cwd: as.project, env: as.env, timeout: 280_000, maxBuffer: 16 * 1024 * 1024 });
    expect(JSON.parse(stdout)).toEqual(expected);
  }, 300_000);

  it("starts the MCP host config's server, which lists the tool, " +
    "answers -32602 for an unknown one and exits 0 when its input ends", async () => {
    const config = JSON.parse(snippets["snippet-mcp"]!) as { mcpServers: Record<string, { command: string; args: string[] }> };
    const server = config.mcpServers["text-stats"]!;
    const [command, ...args] = asUser([server.command, ...server.args]);
    const child = spawn(command!, args, { cwd: as.project, env: as.env, stdio: ["pipe", "pipe", "pipe"] });
    const exited = once(child, "exit") as Promise<[number | null, NodeJS.Signals | null]>;
    let stderr = "";
    child.stderr.on("data", (data: Buffer) => (stderr += data.toString()));
    type Answer = { id?: number; result?: { tools?: { name: string }[] }; error?: { code: number; message: string } };
    const answers = new Map<number, Answer>();
    let pending = "";
    child.stdout.on("data", (data: Buffer) => {
      const lines = (pending + data.toString()).split("\n");
      pending = lines.pop()!;
      for (const line of lines.filter(Boolean)) {
        const message = JSON.parse(line) as Answer;
        if (typeof message.id === "number") answers.set(message.id, message);
      }
    });
    const send = (message: object) => child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", ...message })}\n`);
    const answered = (id: number) =>
      expect.poll(() => answers.has(id) || child.exitCode !== null, { timeout: 240_000, interval: 100 }).toBe(true);
    send({
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "nobody's host", version: "1" } },
    });
    await answered(1);
    send({ method: "notifications/initialized" });
    send({ id: 2, method: "tools/list" });
    send({ id: 3, method: "tools/call", params: { name: "no-such-tool", arguments: {} } });
    await answered(2);
    await answered(3);
    child.stdin.end();
    expect(await exited, stderr).toEqual([0, null]);
    expect(answers.get(2)?.result?.tools?.map((tool) => tool.name)).toEqual(["text-stats"]);
    expect(answers.get(3)?.error).toMatchObject({ code: -32602, message: expect.stringContaining("no-such-tool") });
  }, 300_000);
});
