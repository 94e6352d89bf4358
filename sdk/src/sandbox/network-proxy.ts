import { unlink } from "node:fs/promises";
import { createConnection, createServer, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { networkTargets } from "./capabilities/tool-capabilities.js";

/** Longest request head the proxy reads before deciding (a request line and its headers). */
const MAX_HEAD_BYTES = 16 * 1024;
const HEAD_TIMEOUT_MS = 10_000;
let created = 0;

/**
 * The filtering proxy a sandboxed tool reaches the network through. It runs in the agent (outside
 * the sandbox) on a unix socket that is bound into the sandbox, whose own network namespace has no
 * route out, so the only way out is this proxy, and it connects only to granted `host:port`
 * pairs: `CONNECT host:port` (HTTPS and other TLS) and absolute-form plain HTTP requests. A refusal
 * is a 403 whose reason names the capability, so the tool's error says what it lacked.
 */
export class FilteringProxy {
  private readonly sockets = new Set<Socket>();

  private constructor(
    private readonly server: Server,
    readonly socketPath: string,
    private readonly allowed: ReadonlyArray<{ host: string; ports: number[] }>,
  ) {
    server.on("connection", (client) => this.accept(client));
  }

  /** Starts a proxy allowing `hosts` (`host:port`, `host` for 80 and 443, `*.example.com`). */
  static async start(hosts: string[]): Promise<FilteringProxy> {
    const socketPath = join(tmpdir(), `agent-tools-proxy-${process.pid}-${++created}.sock`);
    await unlink(socketPath).catch(() => undefined);
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(socketPath, () => resolve());
    });
    server.unref();
    return new FilteringProxy(server, socketPath, hosts.map(networkTargets));
  }

  /** Whether `host:port` is granted. */
  allows(host: string, port: number): boolean {
    const name = host.replace(/^\[|\]$/g, "").toLowerCase();
    return this.allowed.some(
      (entry) => entry.ports.includes(port) && (entry.host === name || (entry.host.startsWith("*.") && name.endsWith(entry.host.slice(1)))),
    );
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    await unlink(this.socketPath).catch(() => undefined);
  }

  private accept(client: Socket): void {
    this.track(client);
    const chunks: Buffer[] = [];
    let size = 0;
    const timer = setTimeout(() => client.destroy(), HEAD_TIMEOUT_MS);
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      const buffered = Buffer.concat(chunks);
      const end = buffered.indexOf("\r\n\r\n");
      if (end === -1 && size <= MAX_HEAD_BYTES) return;
      client.off("data", onData);
      clearTimeout(timer);
      if (end === -1) return refuse(client, 431, "request head too large");
      this.route(client, buffered.subarray(0, end).toString("latin1"), buffered.subarray(end + 4));
    };
    client.on("data", onData);
  }

  private route(client: Socket, head: string, rest: Buffer): void {
    const [requestLine = "", ...headers] = head.split("\r\n");
    const [method = "", target = "", version = "HTTP/1.1"] = requestLine.split(" ");
    if (method === "CONNECT") {
      const { host, port } = splitHostPort(target, 443);
      if (!this.allows(host, port)) return refuse(client, 403, `agent-tools sandbox: network:${host}:${port} not granted`);
      return this.tunnel(client, host, port, rest, () => client.write("HTTP/1.1 200 Connection Established\r\n\r\n"));
    }
    let url: URL;
    try {
      url = new URL(target);
    } catch {
      return refuse(client, 400, "the proxy takes CONNECT host:port or absolute http:// URLs");
    }
    if (url.protocol !== "http:") return refuse(client, 400, `use CONNECT for ${url.protocol} URLs`);
    const port = url.port === "" ? 80 : Number(url.port);
    const host = url.hostname;
    if (!this.allows(host, port)) return refuse(client, 403, `agent-tools sandbox: network:${host}:${port} not granted`);
    // One upstream per client connection: a second request on it cannot reach another host.
    const kept = headers.filter((line) => !/^(proxy-connection|proxy-authorization|connection):/i.test(line));
    const forwarded = [`${method} ${url.pathname}${url.search} ${version}`, ...kept, "Connection: close", "", ""].join("\r\n");
    this.tunnel(client, host, port, Buffer.concat([Buffer.from(forwarded, "latin1"), rest]), undefined);
  }

  private tunnel(client: Socket, host: string, port: number, first: Buffer, onOpen: (() => void) | undefined): void {
    const upstream = this.track(createConnection({ host, port }));
    let connected = false;
    upstream.once("connect", () => {
      connected = true;
      onOpen?.();
      if (first.length > 0) upstream.write(first);
      client.pipe(upstream);
      upstream.pipe(client);
    });
    upstream.once("error", (error) =>
      connected ? client.destroy() : refuse(client, 502, `cannot reach ${host}:${port}: ${error.message}`),
    );
    client.once("error", () => upstream.destroy());
    client.once("close", () => upstream.destroy());
    upstream.once("close", () => client.end());
  }

  private track(socket: Socket): Socket {
    this.sockets.add(socket);
    socket.once("close", () => this.sockets.delete(socket));
    return socket;
  }
}

function refuse(client: Socket, status: number, reason: string): void {
  const body = `${reason}\n`;
  client.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: text/plain\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

function splitHostPort(target: string, defaultPort: number): { host: string; port: number } {
  const match = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(target);
  if (!match) return { host: target, port: defaultPort };
  return { host: match[1]!.replace(/^\[|\]$/g, ""), port: match[2] === undefined ? defaultPort : Number(match[2]) };
}
