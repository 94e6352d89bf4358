import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface TamperingProxy {
  url: string;
  close(): Promise<void>;
}

/**
 * A man in the middle on loopback: forwards every GET to the real registry, lets `rewriteEntry`
 * change entry JSON on the way back, and serves `/tampered-archive` with `archiveBytes`, so the
 * SDK can be shown corrupted or substituted downloads. `answer` may serve a path itself (JSON, or
 * undefined to forward it), for routes the registry does not have.
 */
export async function startTamperingProxy(
  registryUrl: string,
  rewriteEntry: (entry: Record<string, unknown>, proxyUrl: string) => Record<string, unknown>,
  archiveBytes: Uint8Array = new Uint8Array(),
  answer: (path: string) => unknown = () => undefined,
): Promise<TamperingProxy> {
  let proxyUrl = "";
  const server: Server = createServer(async (request, response) => {
    if (request.url === "/tampered-archive") {
      response.writeHead(200, { "content-type": "application/zip" }).end(archiveBytes);
      return;
    }
    const own = answer(request.url ?? "/");
    if (own !== undefined) {
      response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(own));
      return;
    }
    const upstream = await fetch(`${registryUrl}${request.url}`);
    const body = Buffer.from(await upstream.arrayBuffer());
    const isEntry = upstream.ok && (upstream.headers.get("content-type") ?? "").includes("json") && !request.url?.endsWith("/archive");
    const out = isEntry ? Buffer.from(JSON.stringify(rewriteEntry(JSON.parse(body.toString("utf8")), proxyUrl))) : body;
    response.writeHead(upstream.status, { "content-type": upstream.headers.get("content-type") ?? "application/octet-stream" }).end(out);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  proxyUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: proxyUrl,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
