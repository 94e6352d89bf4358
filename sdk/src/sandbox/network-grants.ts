import { lookup } from "node:dns/promises";
import { grantedTarget } from "./capabilities/tool-capabilities.js";
import { formatHost, hostMatches, parseHost, type GrantedHost, type NetworkHost } from "./capabilities/network-target.js";
import { addressForbiddenBehindName } from "./name-address-policy.js";

/** Resolves a name to its addresses, as `getaddrinfo` does; replaceable so tests can make a name lead anywhere. */
export type NameResolver = (name: string) => Promise<string[]>;

export const systemResolver: NameResolver = async (name) =>
  (await lookup(name, { all: true, verbatim: true })).map((entry) => entry.address);

/** What the proxy may connect to for a request, or why not (the HTTP status and a reason naming the capability). */
export type NetworkDecision = { allowed: true; addresses: string[] } | { allowed: false; status: 403 | 502; reason: string };

/**
 * A tool's network grants (`tool_capabilities.network`, parsed by the same code as requests) and
 * the decision for one parsed request: the host and port must be granted; an IP literal is
 * reached as granted; a name is resolved once, here, and only the addresses it may lead to
 * (`name-address-policy.ts`) are returned, so the proxy connects to what was checked.
 */
export class NetworkGrants {
  private readonly grants: ReadonlyArray<{ host: GrantedHost; ports: number[] }>;

  constructor(
    entries: string[],
    private readonly resolve: NameResolver = systemResolver,
  ) {
    this.grants = entries.map(grantedTarget);
  }

  async decide(host: NetworkHost, port: number): Promise<NetworkDecision> {
    const capability = (shown: string) => `network:${shown}:${port}`;
    if (!this.grants.some((grant) => grant.ports.includes(port) && hostMatches(grant.host, host)))
      return { allowed: false, status: 403, reason: `agent-tools sandbox: ${capability(formatHost(host))} not granted` };
    if (host.kind !== "name") return { allowed: true, addresses: [host.address] };
    let resolved: string[];
    try {
      resolved = await this.resolve(host.name);
    } catch (error) {
      return {
        allowed: false,
        status: 502,
        reason: `cannot resolve ${host.name}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
      };
    }
    const candidates = resolved.map(addressHost).filter((address) => address !== undefined);
    const reachable = candidates.filter((address) => this.literallyGranted(address, port) || !addressForbiddenBehindName(address.address));
    if (reachable.length > 0) return { allowed: true, addresses: reachable.map((address) => address.address) };
    const [first] = candidates;
    if (first === undefined) return { allowed: false, status: 502, reason: `${host.name} resolves to no IP address` };
    const forbidden = addressForbiddenBehindName(first.address)!;
    return {
      allowed: false,
      status: 403,
      reason:
        `agent-tools sandbox: ${capability(formatHost(first))} not granted (${host.name} resolves to ${first.address}, ` +
        `${forbidden.what}: ${forbidden.reason}; a granted name never leads there, only a grant naming the address itself)`,
    };
  }

  private literallyGranted(address: IpHost, port: number): boolean {
    return this.grants.some((grant) => grant.ports.includes(port) && grant.host.kind === address.kind && hostMatches(grant.host, address));
  }
}

type IpHost = Extract<NetworkHost, { kind: "ipv4" | "ipv6" }>;

/** A resolver's answer in the parser's canonical form; undefined when it is not an IP address. */
function addressHost(address: string): IpHost | undefined {
  const parsed = parseHost(address.includes(":") ? `[${address}]` : address);
  return parsed.ok && parsed.value.kind !== "name" ? parsed.value : undefined;
}
