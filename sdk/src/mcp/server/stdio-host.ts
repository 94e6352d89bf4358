import type { Readable, Writable } from "node:stream";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";

export interface McpStdioHostOptions {
  /** Default `process.stdin`. */
  stdin?: Readable;
  /** Default `process.stdout`. */
  stdout?: Writable;
}

export interface McpStdioHost {
  /** Resolves once the session is over: the client closed our stdin (its normal way to stop), our stdout broke, or `close()` ran. */
  closed: Promise<void>;
  close(): Promise<void>;
}

/**
 * Serves one MCP server over stdio and says when the client has gone. The SDK's stdio transport
 * never reports the end of its input, so a host that stops us by closing stdin (as the MCP SDK's
 * `client.close()` does) would otherwise leave the server waiting forever (docs/mcp.md, "Stopping").
 */
export async function serveMcpOverStdio(createMcpServer: () => Server, options: McpStdioHostOptions = {}): Promise<McpStdioHost> {
  const stdin = options.stdin ?? process.stdin;
  const stdout = options.stdout ?? process.stdout;
  const server = createMcpServer();
  let closing: Promise<void> | undefined;
  const close = () => (closing ??= server.close());
  const closed = new Promise<void>((done) => {
    server.onclose = done;
  });
  const end = () => void close();
  stdin.once("end", end);
  stdin.once("close", end);
  // A host that exits without reading our last answer leaves a broken pipe: the session is over, not an error.
  stdout.on("error", end);
  await server.connect(new StdioServerTransport(stdin, stdout));
  void closed.then(() => {
    stdin.off("end", end);
    stdin.off("close", end);
  });
  return { closed, close };
}
