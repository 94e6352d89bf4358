import { createServer, type Server, type Socket } from "node:net";

/**
 * Listeners where a command that reached the agent's network could connect: loopback TCP, a unix
 * socket file outside the project (where a `docker.sock` would be) and an abstract unix socket.
 * Each records every connection; a sandboxed command must make none.
 */
export interface ListenerAddresses {
  port: number;
  socketPath: string;
  /** The abstract socket's name, without the leading NUL. */
  abstractName: string;
}

export class Listeners {
  private readonly servers: Server[] = [];
  private readonly sockets = new Set<Socket>();
  private connections: string[] = [];

  private constructor(readonly addresses: ListenerAddresses) {}

  static async start(socketPath: string, abstractName: string): Promise<Listeners> {
    const listeners = new Listeners({ port: 0, socketPath, abstractName });
    const port = await listeners.listen("tcp 127.0.0.1", (server) => server.listen(0, "127.0.0.1"));
    await listeners.listen(`unix ${socketPath}`, (server) => server.listen(socketPath));
    await listeners.listen(`abstract @${abstractName}`, (server) => server.listen(`\0${abstractName}`));
    listeners.addresses.port = port;
    return listeners;
  }

  private listen(name: string, start: (server: Server) => void): Promise<number> {
    const server = createServer((socket) => {
      this.connections.push(name);
      this.sockets.add(socket);
      socket.on("close", () => this.sockets.delete(socket));
      socket.on("error", () => undefined);
      socket.end("HTTP/1.0 200 OK\r\n\r\nlistener reached\n");
    });
    this.servers.push(server);
    return new Promise((resolve, reject) => {
      server.once("error", reject);
      server.once("listening", () => {
        const address = server.address();
        resolve(typeof address === "object" && address !== null ? address.port : 0);
      });
      start(server);
    });
  }

  /** The connections made since the last call (by listener), and a fresh count from here. */
  take(): string[] {
    const made = this.connections;
    this.connections = [];
    return made;
  }

  /** Stops listening and drops the connections still open (a client that never hung up). */
  close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    return Promise.all(this.servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve())))).then(() => undefined);
  }
}
