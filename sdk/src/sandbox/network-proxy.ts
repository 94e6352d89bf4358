import { randomBytes, timingSafeEqual } from "node:crypto";
import { rm } from "node:fs/promises";
import { createConnection, createServer, type Server, type Socket } from "node:net";
import { formatHost, parseHost, parseHostAndPort, parseHttpUrl, type NetworkHost } from "./capabilities/network-target.js";
import { NetworkGrants, type NameResolver } from "./network-grants.js";
import { createProxySocketPath } from "./proxy-socket-folder.js";

/** Longest request head the proxy reads before deciding (a request line and its headers). */
const MAX_HEAD_BYTES = 16 * 1024;
const HEAD_TIMEOUT_MS = 10_000;
/** The first line of every connection: who may use this proxy (see `FilteringProxy.token`). */
const TOKEN_LINE = "agent-tools-proxy-token ";
const HTTP_VERSION = /^HTTP\/1\.[01]$/;
const METHOD = /^[A-Z]{1,20}$/;
const HOP_BY_HOP = /^(host|proxy-connection|proxy-authorization|connection|keep-alive):/i;

export interface FilteringProxyOptions {
  /** The SDK's proxy-sockets folder (`<cacheDir>/proxies`): the proxy's socket gets a private folder inside it. */
  socketsRoot: string;
  /** How granted names are resolved (default: the system resolver); tests make a name lead to loopback. */
  resolve?: NameResolver;
}

/**
 * The filtering proxy a sandboxed tool reaches the network through. It runs in the agent (outside
 * the sandbox) on a unix socket in a private folder that is bound into that tool's sandbox alone,
 * whose own network namespace has no route out, so the only way out is this proxy. It takes
 * `CONNECT host:port` (HTTPS and other TLS) and absolute-form plain HTTP requests, parses the
 * target with the same code as the grants (`network-target.ts`), refuses what is not exactly one
 * canonical host (400), what is not granted (403, naming the capability), and connects to the
 * addresses `NetworkGrants` checked, never to the text it was sent (docs/sandbox.md, "Network").
 */
export class FilteringProxy {
  private readonly sockets = new Set<Socket>();

  private constructor(
    private readonly server: Server,
    private readonly folder: string,
    readonly socketPath: string,
    /**
     * The secret each connection starts with (`agent-tools-proxy-token <token>\r\n`), given to the
     * tool's sandbox alone in `AGENT_TOOLS_PROXY_TOKEN`: a process that reaches the socket any
     * other way (another tool, another sandbox) is refused with a 407.
     */
    readonly token: string,
    private readonly grants: NetworkGrants,
  ) {
    server.on("connection", (client) => this.accept(client));
  }

  /** Starts a proxy allowing `hosts` (`tool_capabilities.network` entries: `host:port`, `host` for 80 and 443, `*.example.com`). */
  static async start(hosts: string[], options: FilteringProxyOptions): Promise<FilteringProxy> {
    const grants = new NetworkGrants(hosts, options.resolve);
    const { folder, socketPath } = await createProxySocketPath(options.socketsRoot);
    const server = createServer();
    try {
      await new Promise<void>((resolve, reject) => {
        server.once("error", reject);
        server.listen(socketPath, () => resolve());
      });
    } catch (error) {
      await rm(folder, { recursive: true, force: true });
      throw error;
    }
    server.unref();
    return new FilteringProxy(server, folder, socketPath, randomBytes(32).toString("hex"), grants);
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    await rm(this.folder, { recursive: true, force: true });
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
      this.route(client, buffered.subarray(0, end).toString("latin1"), buffered.subarray(end + 4)).catch(() => client.destroy());
    };
    client.on("data", onData);
  }

  private async route(client: Socket, head: string, rest: Buffer): Promise<void> {
    const [tokenLine = "", requestLine = "", ...headers] = head.split("\r\n");
    if (!this.tokenMatches(tokenLine)) return refuse(client, 407, "agent-tools sandbox: this proxy serves one sandboxed tool alone");
    const parts = requestLine.split(" ");
    const [method = "", target = "", version = ""] = parts;
    if (parts.length !== 3 || !METHOD.test(method) || !HTTP_VERSION.test(version))
      return refuse(client, 400, "agent-tools sandbox: a request line is METHOD target HTTP/1.1");
    const request = method === "CONNECT" ? parseConnectTarget(target) : parseHttpUrl(target);
    if (!request.ok) return refuse(client, 400, `agent-tools sandbox: refused the target ${JSON.stringify(target)}: ${request.reason}`);
    const { host, port } = request.value;
    const decision = await this.grants.decide(host, port);
    if (!decision.allowed) return refuse(client, decision.status, decision.reason);
    if (method === "CONNECT") {
      return this.tunnel(client, decision.addresses, port, rest, () => client.write("HTTP/1.1 200 Connection Established\r\n\r\n"));
    }
    // One upstream per client connection: a second request on it cannot reach another host. The
    // Host header is the URL's (RFC 9112 §3.2.2: a proxy replaces it), so it cannot name another host.
    const path = "path" in request.value ? request.value.path : "/";
    const kept = headers.filter((line) => !HOP_BY_HOP.test(line));
    const forwarded = [`${method} ${path} ${version}`, `Host: ${authority(host, port)}`, ...kept, "Connection: close", "", ""].join("\r\n");
    this.tunnel(client, decision.addresses, port, Buffer.concat([Buffer.from(forwarded, "latin1"), rest]), undefined);
  }

  private tokenMatches(line: string): boolean {
    const given = Buffer.from(line.startsWith(TOKEN_LINE) ? line.slice(TOKEN_LINE.length) : "", "latin1");
    const expected = Buffer.from(this.token, "latin1");
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  /** Connects to the checked addresses in turn (a name may resolve to several), then pipes both ways. */
  private tunnel(client: Socket, addresses: string[], port: number, first: Buffer, onOpen: (() => void) | undefined): void {
    const [address, ...others] = addresses;
    if (address === undefined) return;
    const upstream = this.track(createConnection({ host: address, port }));
    let connected = false;
    upstream.once("connect", () => {
      connected = true;
      onOpen?.();
      if (first.length > 0) upstream.write(first);
      client.pipe(upstream);
      upstream.pipe(client);
    });
    upstream.once("error", (error) => {
      if (connected) client.destroy();
      else if (others.length > 0) this.tunnel(client, others, port, first, onOpen);
      else refuse(client, 502, `cannot reach ${address}:${port}: ${error.message}`);
    });
    const stop = () => upstream.destroy();
    client.once("error", stop);
    client.once("close", stop);
    upstream.once("close", () => {
      client.off("error", stop);
      client.off("close", stop);
      if (connected) client.end();
    });
  }

  private track(socket: Socket): Socket {
    this.sockets.add(socket);
    // A peer that resets (a tool closing early) must never crash the agent; what follows an error is decided on "close".
    socket.on("error", () => undefined);
    socket.once("close", () => this.sockets.delete(socket));
    return socket;
  }
}

/** `CONNECT host:port`: authority form, the port required. */
function parseConnectTarget(target: string) {
  const parsed = parseHostAndPort(target, parseHost, undefined);
  return parsed.ok ? { ok: true as const, value: { host: parsed.value.host, port: parsed.value.ports[0]! } } : parsed;
}

function authority(host: NetworkHost, port: number): string {
  return port === 80 ? formatHost(host) : `${formatHost(host)}:${port}`;
}

function refuse(client: Socket, status: number, reason: string): void {
  const body = `${reason}\n`;
  client.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: text/plain\r\nContent-Length: ` +
      `${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
