/**
 * The one parser for network hosts (docs/sandbox.md, "Network"): a capability's
 * `tool_capabilities.network` entries and the targets a sandboxed tool asks the filtering proxy
 * for (`CONNECT host:port`, `GET http://host:port/path`) are read by this code, so a grant and a
 * request name a host the same way. A host is exactly one canonical form; anything a resolver or
 * a URL parser might read differently (a NUL, `%`-encoding, userinfo, octal or short IPv4, a zone
 * id, Unicode) is refused with the reason, never repaired.
 */

/** A host in canonical text: lower-case DNS name without trailing dot, dotted-quad IPv4, or IPv6 without brackets. */
export type NetworkHost = { kind: "name"; name: string } | { kind: "ipv4"; address: string } | { kind: "ipv6"; address: string };

/** A grant's host: a host, or `*.suffix` (every name below `suffix`, by whole labels). */
export type GrantedHost = NetworkHost | { kind: "wildcard"; suffix: string };

export type Parsed<T> = { ok: true; value: T } | { ok: false; reason: string };

const MAX_NAME_LENGTH = 253;
const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const DECIMAL_OCTET = /^(?:0|[1-9][0-9]{0,2})$/;
const PORT = /^[1-9][0-9]{0,4}$/;
/** A last label a URL parser or `inet_aton` reads as a number (`127.1`, `0x7f.1`, `2130706433`), so the name would be an address. */
const NUMERIC_LABEL = /^(?:[0-9]+|0x[0-9a-f]*)$/i;

/** `host` as written in a grant or a request: a name, an IPv4 dotted quad, or a bracketed IPv6 literal. */
export function parseHost(text: string): Parsed<NetworkHost> {
  if (text.startsWith("[") && text.includes("%"))
    return refuse("it holds an IPv6 zone id (%...), which names an interface of the agent's machine");
  const unsafe = unsafeCharacter(text);
  if (unsafe !== undefined) return refuse(unsafe);
  if (text.startsWith("[")) {
    if (!text.endsWith("]")) return refuse("an IPv6 address must be enclosed in [ and ], e.g. [2001:db8::1]");
    const address = canonicalIpv6(text.slice(1, -1));
    return address === undefined ? refuse("it is not a valid IPv6 address") : accept({ kind: "ipv6", address });
  }
  if (text.includes(":")) return refuse("it holds a colon: an IPv6 address must be enclosed in [ and ], and a port follows the host once");
  const name = (text.endsWith(".") ? text.slice(0, -1) : text).toLowerCase();
  const labels = name.split(".");
  if (NUMERIC_LABEL.test(labels[labels.length - 1] ?? "")) {
    return isCanonicalIpv4(labels)
      ? accept({ kind: "ipv4", address: name })
      : refuse("it is not a canonical IPv4 address: write four decimal numbers 0-255 without leading zeros, e.g. 192.0.2.1");
  }
  const problem = nameProblem(name, labels);
  return problem === undefined ? accept({ kind: "name", name }) : refuse(problem);
}

/** A grant's host: a host, or `*.example.com` for the names below example.com. */
export function parseGrantedHost(text: string): Parsed<GrantedHost> {
  if (!text.startsWith("*.")) return parseHost(text);
  const suffix = parseHost(text.slice(2));
  if (!suffix.ok) return suffix;
  if (suffix.value.kind !== "name") return refuse("a wildcard covers names below a DNS name, not an IP address");
  return accept({ kind: "wildcard", suffix: suffix.value.name });
}

/** A decimal port 1-65535 without leading zeros. */
export function parsePort(text: string): Parsed<number> {
  const port = Number(text);
  if (!PORT.test(text) || port > 65535)
    return refuse(`the port ${JSON.stringify(text)} is not one of 1-65535 (decimal, without leading zeros)`);
  return accept(port);
}

/** `host:port` (`[ipv6]:port`); without a port `defaultPorts` apply, or it is refused when there are none. */
export function parseHostAndPort<H>(
  text: string,
  hostParser: (host: string) => Parsed<H>,
  defaultPorts: number[] | undefined,
): Parsed<{ host: H; ports: number[] }> {
  const url = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/([^/?#]*)/.exec(text);
  if (url !== null)
    return refuse(`it is a URL: name the host and port alone, e.g. ${JSON.stringify(url[1]!.includes(":") ? url[1] : `${url[1]}:443`)}`);
  const split = /^(\[[^\]]*\]|[^:]*)(?::([^:]*))?$/.exec(text);
  if (split === null) return refuse("it is not host:port (a colon too many? an IPv6 address must be enclosed in [ and ])");
  const host = hostParser(split[1]!);
  if (!host.ok) return host;
  if (split[2] === undefined) {
    return defaultPorts === undefined ? refuse("it names no port: write host:port") : accept({ host: host.value, ports: defaultPorts });
  }
  const port = parsePort(split[2]);
  return port.ok ? accept({ host: host.value, ports: [port.value] }) : port;
}

/** An absolute-form plain-HTTP request target, `http://host[:port][/path][?query]`: its host, port and origin-form path. */
export function parseHttpUrl(text: string): Parsed<{ host: NetworkHost; port: number; path: string }> {
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(text);
  if (scheme === null) return refuse("the proxy takes CONNECT host:port or absolute http:// URLs");
  if (scheme[1]!.toLowerCase() !== "http") return refuse(`use CONNECT for ${scheme[1]!.toLowerCase()}: URLs`);
  const rest = text.slice(scheme[0].length);
  const end = rest.search(/[/?#]/);
  const authority = end === -1 ? rest : rest.slice(0, end);
  const path = end === -1 ? "/" : rest.slice(end);
  if (authority.includes("@")) return refuse("it holds userinfo (user@host): a proxied URL names its host alone");
  if (path.includes("#")) return refuse("a request target has no #fragment");
  const unsafe = unsafeCharacter(path, "the path");
  if (unsafe !== undefined) return refuse(unsafe);
  const parsed = parseHostAndPort(authority, parseHost, [80]);
  if (!parsed.ok) return parsed;
  return accept({ host: parsed.value.host, port: parsed.value.ports[0]!, path: path.startsWith("?") ? `/${path}` : path });
}

/** `host` as a grant or a refusal names it: IPv6 in brackets. */
export function formatHost(host: GrantedHost): string {
  if (host.kind === "wildcard") return `*.${host.suffix}`;
  if (host.kind === "ipv6") return `[${host.address}]`;
  return host.kind === "name" ? host.name : host.address;
}

/** Whether a request's host is the granted one: the same canonical host, or a name below a wildcard's suffix by whole labels. */
export function hostMatches(granted: GrantedHost, host: NetworkHost): boolean {
  if (granted.kind === "wildcard") return host.kind === "name" && host.name.endsWith(`.${granted.suffix}`);
  return granted.kind === host.kind && formatHost(granted) === formatHost(host);
}

/** IPv6 text → its eight 16-bit groups; undefined unless it is a valid literal (an embedded IPv4 tail must be a canonical quad). */
export function ipv6Groups(text: string): number[] | undefined {
  if (!/^[0-9a-f:.]+$/i.test(text)) return undefined;
  const halves = text.split("::");
  if (halves.length > 2) return undefined;
  // An IPv4 tail may only end the whole address.
  const parse = (part: string, last: boolean): number[] | undefined => {
    if (part === "") return [];
    const groups: number[] = [];
    const pieces = part.split(":");
    for (const [index, piece] of pieces.entries()) {
      if (last && index === pieces.length - 1 && piece.includes(".")) {
        const octets = piece.split(".");
        if (!isCanonicalIpv4(octets)) return undefined;
        const [a, b, c, d] = octets.map(Number) as [number, number, number, number];
        groups.push((a << 8) | b, (c << 8) | d);
      } else if (/^[0-9a-f]{1,4}$/i.test(piece)) groups.push(Number.parseInt(piece, 16));
      else return undefined;
    }
    return groups;
  };
  const head = parse(halves[0]!, halves.length === 1);
  const tail = halves.length === 2 ? parse(halves[1]!, true) : [];
  if (head === undefined || tail === undefined) return undefined;
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return undefined;
  return [...head, ...Array<number>(halves.length === 2 ? missing : 0).fill(0), ...tail];
}

/** RFC 5952 text: lower-case hex without leading zeros, the longest run of two or more zero groups as `::` (the first on a tie). */
function canonicalIpv6(text: string): string | undefined {
  const groups = ipv6Groups(text);
  if (groups === undefined) return undefined;
  let best = { start: -1, length: 1 };
  for (let start = 0; start < 8; start++) {
    let length = 0;
    while (start + length < 8 && groups[start + length] === 0) length++;
    if (length > best.length) best = { start, length };
  }
  const hex = groups.map((group) => group.toString(16));
  if (best.start === -1) return hex.join(":");
  return `${hex.slice(0, best.start).join(":")}::${hex.slice(best.start + best.length).join(":")}`;
}

function isCanonicalIpv4(octets: string[]): boolean {
  return octets.length === 4 && octets.every((octet) => DECIMAL_OCTET.test(octet) && Number(octet) <= 255);
}

function nameProblem(name: string, labels: string[]): string | undefined {
  if (name.length > MAX_NAME_LENGTH) return `the name is ${name.length} characters long; DNS names have at most ${MAX_NAME_LENGTH}`;
  const bad = labels.find((label) => !LABEL.test(label));
  if (bad === undefined) return undefined;
  if (bad === "") return "it has an empty label (two dots in a row, or a leading dot)";
  if (bad.length > 63) return `its label "${bad.slice(0, 20)}..." is ${bad.length} characters long; DNS labels have at most 63`;
  if (bad.startsWith("-") || bad.endsWith("-")) return `its label "${bad}" starts or ends with a hyphen`;
  return `its label "${bad}" holds a character other than letters, digits and hyphens`;
}

/** The first character no canonical host (or request path) may hold, described; undefined when there is none. */
function unsafeCharacter(text: string, what = "the host"): string | undefined {
  if (text.length === 0) return `${what} is empty`;
  for (const char of text) {
    const code = char.codePointAt(0)!;
    if (code === 0) return `${what} holds a NUL character`;
    if (code < 0x21 || code === 0x7f) return `${what} holds whitespace or a control character (U+${hex4(code)})`;
    if (code > 0x7e) {
      return (
        `${what} holds the non-ASCII character ` +
        `U+${hex4(code)}${what === "the host" ? ": write an internationalised name in its punycode form (xn--...)" : ""}`
      );
    }
    if (what !== "the host") continue;
    if (char === "%") return "the host holds %-encoding: write the name itself";
    if (char === "@") return "the host holds userinfo (user@host): name the host alone";
    if (char === "\\") return "the host holds a backslash";
    if (/[/?#*,;=&!$'"()<>^`{|}~_+]/.test(char)) return `the host holds the character ${JSON.stringify(char)}, which no host name has`;
  }
  return undefined;
}

function hex4(code: number): string {
  return code.toString(16).toUpperCase().padStart(4, "0");
}

function accept<T>(value: T): Parsed<T> {
  return { ok: true, value };
}

function refuse<T>(reason: string): Parsed<T> {
  return { ok: false, reason };
}
