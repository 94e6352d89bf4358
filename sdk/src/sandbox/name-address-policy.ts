import { isIPv4 } from "node:net";
import { ipv6Groups } from "./capabilities/network-target.js";

/**
 * Addresses a granted *name* never reaches (docs/sandbox.md, "Network"): what the name resolves
 * to is the DNS server's choice, and a name that resolves to the agent's own machine or to a
 * cloud metadata service (DNS rebinding) would turn a grant for `api.example.com` into a grant
 * for those. A grant that names such an address literally (`127.0.0.1:8080`) still reaches it.
 * Private networks (10/8, 172.16/12, 192.168/16, fc00::/7) are reached: company APIs live there.
 */
const NEVER_BEHIND_A_NAME: ReadonlyArray<{ range: string; what: string; reason: string }> = [
  { range: "127.0.0.0/8", what: "a loopback address", reason: "the agent's own machine and the services listening on it" },
  { range: "0.0.0.0/8", what: "a this-host address", reason: "connecting to 0.0.0.0 reaches the agent's own machine" },
  {
    range: "169.254.0.0/16",
    what: "a link-local address",
    reason: "cloud metadata services (169.254.169.254 hands out the machine's credentials) and other link-local services",
  },
  { range: "100.100.100.200/32", what: "a cloud metadata address", reason: "Alibaba Cloud's metadata service" },
  { range: "::1/128", what: "a loopback address", reason: "the agent's own machine" },
  { range: "::/128", what: "the unspecified address", reason: "connecting to :: reaches the agent's own machine" },
  { range: "fe80::/10", what: "a link-local address", reason: "services on the agent's own network link" },
  { range: "fd00:ec2::254/128", what: "a cloud metadata address", reason: "the IPv6 address of AWS's instance metadata service" },
];

/** 128-bit form of an address; an IPv4-mapped IPv6 address (`::ffff:127.0.0.1`) is judged as the IPv4 address it carries. */
function addressBits(address: string): { v4: boolean; bits: bigint } | undefined {
  if (isIPv4(address)) return { v4: true, bits: address.split(".").reduce((sum, octet) => (sum << 8n) | BigInt(octet), 0n) };
  const groups = ipv6Groups(address);
  if (groups === undefined) return undefined;
  const bits = groups.reduce((sum, group) => (sum << 16n) | BigInt(group), 0n);
  return bits >> 32n === 0xffffn ? { v4: true, bits: bits & 0xffffffffn } : { v4: false, bits };
}

const RANGES = NEVER_BEHIND_A_NAME.map((entry) => {
  const [base, length] = entry.range.split("/") as [string, string];
  const parsed = addressBits(base)!;
  const width = parsed.v4 ? 32n : 128n;
  const shift = width - BigInt(length);
  return { ...entry, v4: parsed.v4, prefix: parsed.bits >> shift, shift };
});

/** Why a granted name must not lead to `address` (what it is and what it reaches), or undefined when a name may reach it. */
export function addressForbiddenBehindName(address: string): { what: string; reason: string } | undefined {
  const parsed = addressBits(address);
  if (parsed === undefined) return { what: "not an IP address", reason: "the resolver answered something else" };
  return RANGES.find((range) => range.v4 === parsed.v4 && parsed.bits >> range.shift === range.prefix);
}
