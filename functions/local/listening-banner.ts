import { networkInterfaces } from "node:os";
import { sdkTarballUrl } from "../sdk-package/sdk-package.js";

export interface BannerFacts {
  url: string;
  host: string;
  port: number;
  catalogueUrl: string;
  /** The SDK tarball's file name under /sdk/, when the registry serves one. */
  sdkFile?: string;
}

/**
 * What `npm start` prints once it listens: the API's URL, the catalogue's (on a port browsers
 * open, docs/web.md#opening-the-catalogue) and the command that installs the SDK and CLI it serves.
 * On a wildcard host (`0.0.0.0`, `::`) the first line says so and names the URLs other machines can
 * use, so a reader who served the registry to the network is not told it is on 127.0.0.1 only.
 */
export function listeningBanner(registry: BannerFacts): string {
  const lines = [`Agent Tools registry listening on ${registry.url}${networkReach(registry)}`];
  lines.push(
    `Catalogue (open in a browser): ` +
      `${registry.catalogueUrl}${registry.catalogueUrl.startsWith(`${registry.url}/`) ? "" : ` (browsers refuse port ${registry.port})`}`,
  );
  if (registry.sdkFile !== undefined)
    lines.push(`SDK and CLI for any project: npm install ${sdkTarballUrl(registry.url, registry.sdkFile)}`);
  return lines.join("\n");
}

function networkReach(registry: BannerFacts): string {
  if (registry.host !== "0.0.0.0" && registry.host !== "::") return "";
  const others = externalAddresses(registry.host === "::").map((address) => `http://${address}:${registry.port}`);
  const reach = others.length > 0 ? `; other machines: ${others.join(", ")}` : "";
  return ` (this machine), on every interface (${registry.host})${reach}`;
}

function externalAddresses(includeIpv6: boolean): string[] {
  return Object.values(networkInterfaces())
    .flatMap((addresses) => addresses ?? [])
    .filter((address) => !address.internal && (address.family === "IPv4" || (includeIpv6 && !address.address.startsWith("fe80"))))
    .map((address) => (address.family === "IPv6" ? `[${address.address}]` : address.address));
}
