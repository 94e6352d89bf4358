import { createServer } from "node:net";
import type { AddressInfo } from "node:net";

/** A loopback URL on a port that was free a moment ago and has nothing listening: a registry that is down. */
export async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}
