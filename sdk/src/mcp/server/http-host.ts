import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";

export interface McpHttpHostOptions {
  /** Default 0: any free port. */
  port?: number;
}

export interface McpHttpHost {
  /** `http://127.0.0.1:<port>/mcp` */
  url: string;
  close(): Promise<void>;
}

const MCP_PATH = "/mcp";
const MAX_BODY_BYTES = 4 * 1024 * 1024;

/**
 * Serves MCP over streamable HTTP on loopback only, one server and session per client (sessions
 * let the server ask the client back, as elicitation needs). The Host header must name loopback,
 * so a web page cannot reach it through DNS rebinding.
 */
export async function serveMcpOverHttp(createMcpServer: () => Server, options: McpHttpHostOptions = {}): Promise<McpHttpHost> {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  let allowedHosts: string[] = [];
  const http = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) sendJsonRpcError(res, 500, -32603, `Internal error: ${error instanceof Error ? error.message : String(error)}`);
      else res.end();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (new URL(req.url ?? "/", "http://127.0.0.1").pathname !== MCP_PATH)
      return sendJsonRpcError(res, 404, -32601, `Not found: MCP is served at ${MCP_PATH}.`);
    const sessionId = req.headers["mcp-session-id"];
    const body = req.method === "POST" ? await readJson(req, res) : undefined;
    if (body === INVALID) return;
    if (typeof sessionId === "string") {
      const transport = sessions.get(sessionId);
      if (transport === undefined)
        return sendJsonRpcError(res, 404, -32001, "Session not found: start a new session with an initialize request.");
      return transport.handleRequest(req, res, body);
    }
    if (req.method !== "POST" || !isInitializeRequest(body))
      return sendJsonRpcError(res, 400, -32000, "Bad request: send an initialize request first (no mcp-session-id header given).");
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: randomUUID,
      onsessioninitialized: (id) => void sessions.set(id, transport),
      enableDnsRebindingProtection: true,
      allowedHosts,
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
    };
    await createMcpServer().connect(transport);
    await transport.handleRequest(req, res, body);
  }

  await new Promise<void>((resolve, reject) => {
    http.once("error", reject);
    http.listen(options.port ?? 0, "127.0.0.1", () => resolve());
  });
  const { port } = http.address() as AddressInfo;
  allowedHosts = [`127.0.0.1:${port}`, `localhost:${port}`];
  return {
    url: `http://127.0.0.1:${port}${MCP_PATH}`,
    async close() {
      await Promise.all([...sessions.values()].map((transport) => transport.close()));
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

const INVALID = Symbol("invalid body");

async function readJson(req: IncomingMessage, res: ServerResponse): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.byteLength;
    if (size > MAX_BODY_BYTES) {
      sendJsonRpcError(res, 413, -32600, `Request body over ${MAX_BODY_BYTES} bytes.`);
      return INVALID;
    }
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString("utf8"));
  } catch {
    sendJsonRpcError(res, 400, -32700, "Parse error: the request body is not JSON.");
    return INVALID;
  }
}

function sendJsonRpcError(res: ServerResponse, status: number, code: number, message: string): void {
  res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }));
}
