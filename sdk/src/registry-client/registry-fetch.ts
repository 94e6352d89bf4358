import type { IncomingMessage } from "node:http";
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import { Readable } from "node:stream";

/**
 * Ports the Fetch standard calls "bad" (https://fetch.spec.whatwg.org/#bad-port): Node's fetch refuses
 * them with "bad port" before connecting. 6000 (X11) is among them, and it is the registry's default
 * port (`npm start`, the documented `http://<tools-registry>:6000`, docs/design/compatibility.md#ports), so
 * requests to those ports go through
 * node:http instead.
 */
const BAD_PORTS = new Set([
  0, 1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101, 102, 103, 104, 109, 110, 111, 113, 115, 117,
  119, 123, 135, 137, 139, 143, 161, 179, 389, 427, 465, 512, 513, 514, 515, 526, 530, 531, 532, 540, 548, 554, 556, 563, 587, 601, 636,
  989, 990, 993, 995, 1719, 1720, 1723, 2049, 3659, 4045, 4190, 5060, 5061, 6000, 6566, 6665, 6666, 6667, 6668, 6669, 6679, 6697, 10080,
]);

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);
const MAX_REDIRECTS = 20;

/** Whether Node's fetch, and browsers, would refuse this URL's port (the Fetch standard's "bad ports", 6000 among them). */
export function isFetchBadPort(url: URL): boolean {
  const port = url.port === "" ? (url.protocol === "https:" ? 443 : 80) : Number(url.port);
  return BAD_PORTS.has(port);
}

/**
 * The SDK's default fetch for registry and storage requests: Node's fetch, except for URLs on a port
 * the Fetch standard blocks, which are sent with node:http(s) and answered as a standard `Response`
 * (redirects followed hop by hop, `Authorization` dropped when a redirect leaves the origin, as fetch does).
 */
export const registryFetch: typeof fetch = (input, init) => {
  const url = new URL(input instanceof Request ? input.url : input);
  return isFetchBadPort(url) ? fetchOverNodeHttp(new Request(input, init), MAX_REDIRECTS) : fetch(input, init);
};

async function fetchOverNodeHttp(request: Request, redirectsLeft: number): Promise<Response> {
  const url = new URL(request.url);
  const body = request.body === null ? undefined : Buffer.from(await request.arrayBuffer());
  const send = url.protocol === "https:" ? httpsRequest : httpRequest;
  let incoming: IncomingMessage;
  try {
    incoming = await new Promise<IncomingMessage>((resolve, reject) => {
      const outgoing = send(url, { method: request.method, headers: Object.fromEntries(request.headers), signal: request.signal }, resolve);
      outgoing.on("error", reject);
      outgoing.end(body);
    });
  } catch (error) {
    // Same shapes as fetch: the signal's reason on abort/timeout, else "fetch failed" with the socket error as cause.
    if (request.signal.aborted) throw request.signal.reason;
    throw new TypeError("fetch failed", { cause: error });
  }
  const status = incoming.statusCode ?? 0;
  const location = incoming.headers.location;
  if (REDIRECT_STATUSES.has(status) && location !== undefined && request.redirect === "follow") {
    incoming.resume();
    if (redirectsLeft === 0) throw new TypeError("fetch failed", { cause: new Error("redirect count exceeded") });
    return followRedirect(request, body, status, new URL(location, url), redirectsLeft - 1);
  }
  const headers = new Headers();
  for (let i = 0; i < incoming.rawHeaders.length; i += 2) headers.append(incoming.rawHeaders[i]!, incoming.rawHeaders[i + 1]!);
  const hasBody = !NULL_BODY_STATUSES.has(status) && request.method !== "HEAD";
  if (!hasBody) incoming.resume();
  const stream = hasBody ? (Readable.toWeb(incoming) as unknown as ReadableStream<Uint8Array>) : null;
  return new Response(stream, { status, statusText: incoming.statusMessage ?? "", headers });
}

/** The Fetch standard's redirect rules: 303 (and 301/302 after POST) become a bodiless GET. */
function followRedirect(request: Request, body: Buffer | undefined, status: number, target: URL, redirectsLeft: number): Promise<Response> {
  const toGet = status === 303 ? request.method !== "HEAD" : (status === 301 || status === 302) && request.method === "POST";
  const headers = new Headers(request.headers);
  if (toGet)
    for (const name of ["content-type", "content-length", "content-encoding", "content-language", "content-location"]) headers.delete(name);
  if (target.origin !== new URL(request.url).origin) headers.delete("authorization");
  const init: RequestInit = {
    method: toGet ? "GET" : request.method,
    headers,
    signal: request.signal,
    ...(toGet || body === undefined ? {} : { body }),
  };
  return isFetchBadPort(target) ? fetchOverNodeHttp(new Request(target, init), redirectsLeft) : fetch(target, init);
}
