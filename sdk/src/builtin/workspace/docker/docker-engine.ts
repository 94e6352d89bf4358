import { request, type IncomingMessage } from "node:http";
import { WorkspaceError } from "../workspace-error.js";

/** Where the Docker Engine API listens: a unix socket (default `/var/run/docker.sock`) or a plain `http://host:port`. */
export interface DockerEngineAddress {
  socketPath?: string;
  url?: string;
}

/** The API version asked for: Docker Engine 20.10 and later, and Podman's Docker-compatible service, speak it. */
const API_VERSION = "v1.41";
const DEFAULT_SOCKET = "/var/run/docker.sock";

export interface EngineRequest {
  query?: Record<string, string | number | boolean | undefined>;
  /** A JSON body, or raw bytes (a tar archive). */
  json?: unknown;
  bytes?: Uint8Array;
  contentType?: string;
}

export interface EngineAnswer {
  status: number;
  headers: IncomingMessage["headers"];
  body: Buffer;
}

/**
 * A small client of the Docker Engine API (docs/workspaces.md#docker): JSON requests, raw bodies,
 * and streamed answers (an exec's output), each on its own connection so a stream never blocks a
 * request. Errors are `WorkspaceError`s: `DOCKER_ENGINE_UNAVAILABLE` when nothing answers,
 * `DOCKER_ENGINE_ERROR` with the engine's own message otherwise.
 */
export class DockerEngine {
  private readonly target: { socketPath: string } | { host: string; port: number };
  /** Said in messages: the socket or URL. */
  readonly where: string;

  constructor(address: DockerEngineAddress = {}) {
    const fromEnv = address.socketPath === undefined && address.url === undefined ? parseDockerHost(process.env.DOCKER_HOST) : {};
    const { socketPath, url } = { ...fromEnv, ...address };
    if (url !== undefined) {
      const parsed = new URL(url);
      if (parsed.protocol !== "http:") {
        throw new WorkspaceError(
          "WORKSPACE_OPTIONS_INVALID",
          `engine.url ${url}: only plain http:// engines are supported (a TLS ` +
            `engine needs client certificates); use a unix socket or an SSH tunnel.`,
        );
      }
      this.target = { host: parsed.hostname, port: Number(parsed.port || 80) };
      this.where = url;
    } else {
      this.target = { socketPath: socketPath ?? DEFAULT_SOCKET };
      this.where = `unix://${socketPath ?? DEFAULT_SOCKET}`;
    }
  }

  /** One request; answers outside `expected` (default: any 2xx) throw `DOCKER_ENGINE_ERROR`. */
  async call(method: string, path: string, options: EngineRequest = {}, expected: readonly number[] = []): Promise<EngineAnswer> {
    const response = await this.open(method, path, options);
    const body = await readAll(response);
    const status = response.statusCode ?? 0;
    const ok = expected.length > 0 ? expected.includes(status) : status >= 200 && status < 300;
    if (!ok) throw this.answerError(method, path, status, body);
    return { status, headers: response.headers, body };
  }

  /** `call` whose answer is JSON. */
  async json<T>(method: string, path: string, options: EngineRequest = {}): Promise<T> {
    const { body } = await this.call(method, path, options);
    return (body.length === 0 ? undefined : JSON.parse(body.toString("utf8"))) as T;
  }

  /** A request whose answer is read as it comes (an exec's output); a 2xx answer is returned open. */
  async stream(method: string, path: string, options: EngineRequest = {}): Promise<IncomingMessage> {
    const response = await this.open(method, path, options);
    const status = response.statusCode ?? 0;
    if (status < 200 || status >= 300) throw this.answerError(method, path, status, await readAll(response));
    return response;
  }

  private open(method: string, path: string, options: EngineRequest): Promise<IncomingMessage> {
    const query = Object.entries(options.query ?? {})
      .filter(([, value]) => value !== undefined)
      .map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(String(value))}`)
      .join("&");
    const body = options.json !== undefined ? Buffer.from(JSON.stringify(options.json)) : options.bytes;
    const headers: Record<string, string | number> = { host: "docker" };
    if (body !== undefined) {
      headers["content-type"] = options.contentType ?? (options.json !== undefined ? "application/json" : "application/octet-stream");
      headers["content-length"] = body.length;
    }
    return new Promise((resolve, reject) => {
      const outgoing = request(
        { ...this.target, method, path: `/${API_VERSION}${path}${query ? `?${query}` : ""}`, headers, agent: false },
        resolve,
      );
      outgoing.once("error", (error: NodeJS.ErrnoException) => reject(this.unavailable(error)));
      outgoing.end(body);
    });
  }

  private unavailable(error: NodeJS.ErrnoException): WorkspaceError {
    return new WorkspaceError(
      "DOCKER_ENGINE_UNAVAILABLE",
      `The Docker Engine API at ${this.where} cannot be reached (${error.code ?? error.message}). Start the engine (Docker, ` +
        `or Podman's \`podman system service\`), or point the workspace at it with engine: { socketPath } or DOCKER_HOST.`,
      { cause: error },
    );
  }

  /** The typed error for an answer the caller did not expect. */
  answerError(method: string, path: string, status: number, body: Buffer): WorkspaceError {
    const text = body.toString("utf8");
    let message = text.trim();
    try {
      message = String((JSON.parse(text) as { message?: unknown }).message ?? message);
    } catch {
      // Not JSON: the raw text is the message.
    }
    return new WorkspaceError(
      "DOCKER_ENGINE_ERROR",
      `The Docker Engine at ${this.where} answered ${status} to ${method} ${path}: ${message}`,
      {
        status,
      },
    );
  }
}

/** `DOCKER_HOST` as the docker CLI reads it: `unix:///path` or `tcp://host:port` (plain HTTP). */
function parseDockerHost(value: string | undefined): DockerEngineAddress {
  if (value === undefined || value === "") return {};
  if (value.startsWith("unix://")) return { socketPath: value.slice("unix://".length) };
  if (value.startsWith("tcp://")) return { url: `http://${value.slice("tcp://".length)}` };
  throw new WorkspaceError("WORKSPACE_OPTIONS_INVALID", `DOCKER_HOST=${value}: use unix:///path/to/docker.sock or tcp://host:port.`);
}

function readAll(stream: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on("data", (chunk: Buffer) => chunks.push(chunk));
    stream.once("end", () => resolve(Buffer.concat(chunks)));
    stream.once("error", reject);
  });
}
