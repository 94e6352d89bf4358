/**
 * What serving a registry tool over MCP costs, against calling it directly, all in this run on the
 * text-stats fixture (a Python tool) from a local registry:
 *   (a) direct: warm `AgentTools.executeToolById`
 *   (b) an MCP client (@modelcontextprotocol/sdk) → `agent-tools mcp` over stdio → the same tool
 *   (c) the same over streamable HTTP on loopback
 *   (d) both ways ours: a Toolkit's MCP tool (`McpServers`) → `agent-tools mcp` over stdio
 * The calls are interleaved round by round, so every row sees the same machine load. The server
 * runs with `--allow text-stats`: the engine's check is part of what (b)–(d) measure.
 *
 *   npx tsx bench/mcp.bench.ts      (or: npm run bench mcp)
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, rm } from "node:fs/promises";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { AgentTools } from "../sdk/src/agent-tools.js";
import { McpServers } from "../sdk/src/mcp/client/mcp-servers.js";
import { Toolkit } from "../sdk/src/toolkit/toolkit.js";
import { fixtureBundle } from "../test/support/bundles.js";
import { startTestRegistry, uploadBundle } from "../test/support/registry.js";
import { p50p99 } from "./percentiles.js";

const ROUNDS = 2_000;
const WARMUP_ROUNDS = 100;
const CLI_MAIN = fileURLToPath(new URL("../sdk/src/cli/main.ts", import.meta.url));
const INPUT = { text: "the cat and the hat sat on the mat" };

const work = await mkdtemp(join(tmpdir(), "agent-tools-mcp-bench-"));
const registry = await startTestRegistry();
const cleanup: (() => Promise<unknown>)[] = [];
try {
  await uploadBundle(registry.url, registry.token, (await fixtureBundle("text-stats")).bundle);
  const env = { ...(process.env as Record<string, string>), AGENT_TOOLS_CACHE_DIR: join(work, "cache") };
  const serverArgs = (...extra: string[]) => [
    "--import",
    "tsx",
    CLI_MAIN,
    "mcp",
    "--registry",
    registry.url,
    "--allow",
    "text-stats",
    "text-stats",
    ...extra,
  ];

  const direct = new AgentTools({ toolsDbUrl: registry.url, cacheDir: join(work, "cache") });
  cleanup.push(() => direct.close());
  await direct.add("text-stats");

  const stdio = new Client({ name: "bench", version: "1.0.0" });
  await stdio.connect(new StdioClientTransport({ command: process.execPath, args: serverArgs(), env, stderr: "ignore" }));
  cleanup.push(() => stdio.close());

  const httpServer = spawn(process.execPath, serverArgs("--http"), { env, stdio: ["ignore", "ignore", "pipe"] });
  cleanup.push(async () => {
    httpServer.kill("SIGTERM");
    await once(httpServer, "exit");
  });
  const url = await servedUrl(httpServer.stderr!);
  const http = new Client({ name: "bench", version: "1.0.0" });
  await http.connect(new StreamableHTTPClientTransport(new URL(url)));
  cleanup.push(() => http.close());

  const mcps = await McpServers.connect({ registry: { command: process.execPath, args: serverArgs(), env } });
  cleanup.push(() => mcps.close());
  const toolkit = new Toolkit({ mcps });
  const viaToolkit = async () => {
    const stream = toolkit.callTool({ id: "bench", name: "mcp__registry__text-stats", input: INPUT });
    for (let step = await stream.next(); !step.done; step = await stream.next());
  };

  const rows = await interleave(
    {
      "(a) direct executeToolById": () => direct.executeToolById("text-stats", INPUT),
      "(b) MCP client → agent-tools mcp, stdio": () => stdio.callTool({ name: "text-stats", arguments: INPUT }),
      "(c) MCP client → agent-tools mcp, streamable HTTP": () => http.callTool({ name: "text-stats", arguments: INPUT }),
      "(d) Toolkit MCP tool (McpServers) → agent-tools mcp, stdio": viaToolkit,
    },
    ROUNDS,
  );
  const baseline = rows[0]!.p50;
  console.log(
    `${cpus().length} cores, load average ${loadavg()
      .map((load) => load.toFixed(1))
      .join(" ")}; ${ROUNDS} interleaved rounds after ${WARMUP_ROUNDS} warm-up\n`,
  );
  console.log("| path | p50 ms | p99 ms | p50 vs (a) | MCP overhead p50 ms |");
  console.log("|---|---:|---:|---:|---:|");
  for (const row of rows) {
    console.log(
      `| ${row.name} | ${row.p50.toFixed(3)} | ${row.p99.toFixed(3)} | ` +
        `${(row.p50 / baseline).toFixed(2)}× | ${(row.p50 - baseline).toFixed(3)} |`,
    );
  }
} finally {
  for (const step of cleanup.reverse()) await step().catch(() => undefined);
  await registry.close();
  await rm(work, { recursive: true, force: true });
}

/** Runs each call once per round, in turn, and returns each one's latency percentiles. */
async function interleave(
  calls: Record<string, () => Promise<unknown>>,
  rounds: number,
): Promise<{ name: string; p50: number; p99: number }[]> {
  const entries = Object.entries(calls);
  const times = entries.map(() => new Float64Array(rounds));
  for (let round = -WARMUP_ROUNDS; round < rounds; round++) {
    for (const [index, [, call]] of entries.entries()) {
      const start = performance.now();
      await call();
      if (round >= 0) times[index]![round] = performance.now() - start;
    }
  }
  return entries.map(([name], index) => ({ name, ...p50p99(Array.from(times[index]!)) }));
}

async function servedUrl(stderr: NodeJS.ReadableStream): Promise<string> {
  let text = "";
  for await (const chunk of stderr) {
    text += String(chunk);
    const match = / on (http:\/\/\S+)/.exec(text);
    if (match) return match[1]!;
  }
  throw new Error(`agent-tools mcp --http ended before serving: ${text}`);
}
