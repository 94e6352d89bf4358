import { RegistryError, RegistryUnavailableError } from "../registry-client/registry-errors.js";
import { registryFetch } from "../registry-client/registry-fetch.js";
import { describeFetchFailure, registryAnswerError } from "../registry-client/registry-errors.js";

/** Which registry to talk to, and the write token for routes that need one. */
export interface RegistryRequestOptions {
  registryUrl: string;
  token?: string;
  /** Replaceable for proxies; defaults to Node's global fetch (node:http for ports fetch refuses, such as 6000). */
  fetch?: typeof fetch;
  /** Per-request timeout. Uploads of large bundles to slow links may need more than the default. */
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 120_000;

/** Options for write routes, which always need the token. */
export interface RegistryWriteOptions extends RegistryRequestOptions {
  token: string;
}

/**
 * One request to the registry (authenticated when a token is given), answered with its JSON body. Error bodies
 * (`{"error","detail"}`) become a `RegistryError` carrying both; no answer becomes `RegistryUnavailableError`.
 */
export async function registryRequest<T>(
  options: RegistryRequestOptions,
  method: string,
  pathOrUrl: string,
  body?: RequestInit["body"],
  headers: Record<string, string> = {},
): Promise<T> {
  const base = options.registryUrl.replace(/\/+$/, "");
  const url = new URL(pathOrUrl, `${base}/`).toString();
  const response = await send(
    options,
    url,
    {
      method,
      body,
      headers: { ...(options.token ? { authorization: `Bearer ${options.token}` } : {}), accept: "application/json", ...headers },
    },
    base,
  );
  const text = await response.text();
  if (!response.ok) throw registryAnswerError(response.status, text, toolIdOfPath(new URL(url).pathname));
  const json = parseJson(text);
  if (json === undefined)
    throw new RegistryError(
      response.status,
      "Invalid response from server",
      `expected JSON from ${method} ${url}, got: ${text.slice(0, 200)}`,
    );
  return json as T;
}

/** Errors of a kept-alive connection the server closed just as it was reused: the request never arrived. */
const STALE_CONNECTION = new Set(["UND_ERR_SOCKET", "ECONNRESET", "EPIPE"]);

/**
 * A fetch that turns "no answer" into a `RegistryUnavailableError` naming the registry. A request
 * that died with its kept-alive connection (closed by the server while idle, e.g. during a long
 * storage PUT) is sent once more, as browsers do: the server never read it.
 */
async function send(
  options: Pick<RegistryRequestOptions, "fetch" | "timeoutMs">,
  url: string,
  init: RequestInit,
  registryUrl: string,
): Promise<Response> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const method = init.method ?? "GET";
  for (let attempt = 1; ; attempt++) {
    try {
      return await (options.fetch ?? registryFetch)(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    } catch (error) {
      const cause = (error as { cause?: { code?: string } }).cause;
      if (attempt === 1 && STALE_CONNECTION.has(cause?.code ?? "")) continue;
      const reason = (error as Error).name === "TimeoutError" ? `no answer within ${timeoutMs} ms` : describeFetchFailure(error);
      throw new RegistryUnavailableError(registryUrl, `${method} ${new URL(url).pathname}: ${reason}`, { cause: error });
    }
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The tool a `/tools/<id>/…` route is about, so its 404 says "no such tool" like a read's; undefined for other routes. */
function toolIdOfPath(pathname: string): string | undefined {
  const segment = /\/tools\/([^/]+)/.exec(pathname)?.[1];
  if (segment === undefined || segment === "upload" || segment === "uploads") return undefined;
  return decodeURIComponent(segment);
}
