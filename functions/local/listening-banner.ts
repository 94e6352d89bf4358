import { networkInterfaces } from "node:os";

/**
 * The "listening on" line of `npm start`. On a wildcard host (`0.0.0.0`, `::`) it says so and names
 * the URLs other machines can use, so a reader who served the registry to the network is not told
 * it is on 127.0.0.1 only.
 */
export function listeningBanner(registry: { url: string; host: string; port: number }): string {
  const line = `Agent Tools registry listening on ${registry.url}`;
  if (registry.host !== "0.0.0.0" && registry.host !== "::") return line;
  const others = externalAddresses(registry.host === "::").map((address) => `http://${address}:${registry.port}`);
  const reach = others.length > 0 ? `; other machines: ${others.join(", ")}` : "";
  return `${line} (this machine), on every interface (${registry.host})${reach}`;
}

function externalAddresses(includeIpv6: boolean): string[] {
  return Object.values(networkInterfaces())
    .flatMap((addresses) => addresses ?? [])
    .filter((address) => !address.internal && (address.family === "IPv4" || (includeIpv6 && !address.address.startsWith("fe80"))))
    .map((address) => (address.family === "IPv6" ? `[${address.address}]` : address.address));
}
