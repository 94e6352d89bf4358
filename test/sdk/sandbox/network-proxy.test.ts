import { stat } from "node:fs/promises";
import { createConnection, createServer, type Server, type Socket } from "node:net";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { networkTargets, readToolCapabilities, toolCapabilityProblems } from "@agent-tools/sdk/capabilities";
import { addressForbiddenBehindName } from "../../../sdk/src/sandbox/name-address-policy.js";
import { FilteringProxy } from "../../../sdk/src/sandbox/network-proxy.js";
import { TempDirs } from "../support/temp-dirs.js";

/**
 * The filtering proxy on its real unix socket, spoken to as a sandboxed tool's bridge speaks to it
 * (token line, then an HTTP request head), in front of real listeners on the loopback that record
 * every connection they get: a refused request must never reach them.
 */
const temp = new TempDirs();
let socketsRoot: string;
const upstreams: Array<{ server: Server; port: number; heads: string[]; connections: number }> = [];
const proxies: FilteringProxy[] = [];

/** A listener that answers "upstream says hi" to a tunnel and echoes a plain-HTTP request head back. */
async function upstream(host: string): Promise<(typeof upstreams)[number]> {
  const entry = { server: createServer(), port: 0, heads: [] as string[], connections: 0 };
  entry.server.on("connection", (socket) => {
    entry.connections++;
    let received = "";
    socket.on("data", (chunk) => {
      received += chunk.toString("latin1");
      if (!received.includes("\r\n\r\n")) return;
      entry.heads.push(received);
      socket.end(`HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n`);
    });
    socket.write("upstream says hi\n");
  });
  await new Promise<void>((resolve) => entry.server.listen(0, host, resolve));
  entry.port = (entry.server.address() as { port: number }).port;
  upstreams.push(entry);
  return entry;
}

let v4: Awaited<ReturnType<typeof upstream>>;
let v6: Awaited<ReturnType<typeof upstream>>;

beforeAll(async () => {
  socketsRoot = join(await temp.make(), "cache", "proxies");
  v4 = await upstream("127.0.0.1");
  v6 = await upstream("::1");
});

afterAll(async () => {
  await Promise.all(proxies.map((proxy) => proxy.close()));
  for (const entry of upstreams) entry.server.close();
  await temp.removeAll();
});

async function start(hosts: string[], resolve?: (name: string) => Promise<string[]>): Promise<FilteringProxy> {
  const proxy = await FilteringProxy.start(hosts, { socketsRoot, ...(resolve ? { resolve } : {}) });
  proxies.push(proxy);
  return proxy;
}

/** Sends raw bytes to the proxy's socket and returns everything it answers until it closes (or 3 s pass). */
/** `token: null` sends no token line at all. */
async function send(proxy: FilteringProxy, bytes: string | Buffer, token: string | null = proxy.token): Promise<string> {
  const socket: Socket = createConnection(proxy.socketPath);
  let answer = "";
  socket.on("data", (chunk) => {
    answer += chunk.toString("latin1");
    // A tunnel stays open: once the upstream's greeting arrived, that is the whole answer.
    if (answer.includes("upstream says hi")) socket.end();
  });
  const head = token === null ? "" : `agent-tools-proxy-token ${token}\r\n`;
  socket.write(Buffer.concat([Buffer.from(head), typeof bytes === "string" ? Buffer.from(bytes) : bytes]));
  await new Promise<void>((resolve) => {
    const timer = setTimeout(() => socket.destroy(), 3_000);
    socket.once("close", () => {
      clearTimeout(timer);
      resolve();
    });
  });
  return answer;
}

function connect(target: string): string {
  return `CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\n\r\n`;
}

function status(answer: string): number {
  return Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1]);
}

describe("only the tool whose sandbox holds the token uses its proxy", () => {
  it("a connection without the token, or with another, is refused before anything is read or reached", async () => {
    const proxy = await start([`127.0.0.1:${v4.port}`]);
    const before = v4.connections;
    for (const token of [null, "", "0".repeat(64), `${proxy.token}0`, proxy.token.slice(1)]) {
      const answer = await send(proxy, connect(`127.0.0.1:${v4.port}`), token);
      expect(status(answer), String(token)).toBe(407);
      expect(answer).toContain("serves one sandboxed tool alone");
    }
    expect(v4.connections).toBe(before);
    expect(status(await send(proxy, connect(`127.0.0.1:${v4.port}`)))).toBe(200);
    expect(v4.connections).toBe(before + 1);
  });

  it("each proxy's socket lives alone in a fresh private folder of the sockets root, removed when it closes", async () => {
    const [a, b] = [await start(["example.org"]), await start(["example.org"])];
    expect(dirname(dirname(a.socketPath))).toBe(socketsRoot);
    expect(dirname(a.socketPath)).not.toBe(dirname(b.socketPath));
    expect(a.token).not.toBe(b.token);
    expect((await stat(socketsRoot)).mode & 0o777).toBe(0o700);
    expect((await stat(dirname(a.socketPath))).mode & 0o777).toBe(0o700);
    await a.close();
    await expect(stat(dirname(a.socketPath))).rejects.toThrow(/ENOENT/);
  });
});

describe("a CONNECT target is exactly one canonical host, or a 400 with the reason", () => {
  let proxy: FilteringProxy;
  const resolved: string[] = [];

  beforeAll(async () => {
    // Every name resolves to the loopback, which the literal grant allows: a parsing mistake would connect.
    proxy = await start(["*.example.org", `127.0.0.1:${v4.port}`, `[::1]:${v6.port}`, `*.example.org:${v4.port}`], async (name) => {
      resolved.push(name);
      return ["127.0.0.1"];
    });
  });

  const refused: Array<[string, (port: number) => string, RegExp]> = [
    ["a NUL before a granted suffix", (port) => `127.0.0.1\0.example.org:${port}`, /NUL/],
    ["a NUL before the port", (port) => `a.example.org\0:${port}`, /NUL/],
    ["%-encoding of a NUL", (port) => `127.0.0.1%00.example.org:${port}`, /%-encoding/],
    ["%-encoded digits", (port) => `%31%32%37.0.0.1:${port}`, /%-encoding/],
    ["userinfo", (port) => `user@127.0.0.1:${port}`, /userinfo/],
    ["a backslash", (port) => `127.0.0.1\\.example.org:${port}`, /backslash/],
    ["a space", (port) => `a.example.org\t:${port}`, /whitespace or a control character/],
    ["Unicode (an IDN not in punycode)", (port) => `bücher.example.org:${port}`, /non-ASCII.*punycode/],
    ["a fullwidth dot", (port) => `a\u3002example.org:${port}`, /non-ASCII/],
    ["a short IPv4 form", (port) => `127.1:${port}`, /canonical IPv4/],
    ["a hexadecimal IPv4 label", (port) => `0x7f.0.0.1:${port}`, /canonical IPv4/],
    ["an octal IPv4 label", (port) => `0177.0.0.1:${port}`, /canonical IPv4/],
    ["a leading zero", (port) => `127.0.0.01:${port}`, /canonical IPv4/],
    ["a 32-bit decimal IPv4", (port) => `2130706433:${port}`, /canonical IPv4/],
    ["a 32-bit hexadecimal IPv4", (port) => `0x7f000001:${port}`, /canonical IPv4/],
    ["an octet over 255", (port) => `127.0.0.256:${port}`, /canonical IPv4/],
    ["an IPv6 zone id", (port) => `[fe80::1%25lo]:${port}`, /zone id/],
    ["an unbracketed IPv6 address", (port) => `::1:${port}`, /colon/],
    ["an invalid IPv6 address", (port) => `[::1::2]:${port}`, /not a valid IPv6/],
    ["an IPv4 tail before ::", (port) => `[1.2.3.4::]:${port}`, /not a valid IPv6/],
    ["an empty label", (port) => `a..example.org:${port}`, /empty label/],
    ["a leading dot", (port) => `.example.org:${port}`, /empty label/],
    ["a label starting with a hyphen", (port) => `-a.example.org:${port}`, /hyphen/],
    ["an underscore", (port) => `a_b.example.org:${port}`, /"_"/],
    ["a wildcard", (port) => `*.example.org:${port}`, /"\*"/],
    ["a label over 63 characters", (port) => `${"a".repeat(64)}.example.org:${port}`, /at most 63/],
    ["a name over 253 characters", (port) => `${"a.".repeat(127)}example.org:${port}`, /at most 253/],
    ["two ports", (port) => `a.example.org:${port}:${port}`, /not host:port/],
  ];

  it.each(refused)("%s", async (_case, target, reason) => {
    const before = v4.connections + v6.connections;
    const answer = await send(proxy, connect(target(v4.port)));
    expect(status(answer)).toBe(400);
    expect(answer).toMatch(reason);
    expect(v4.connections + v6.connections).toBe(before);
  });

  it.each([
    ["leading zeros", "0443"],
    ["port 0", "0"],
    ["over 65535", "65536"],
    ["a sign", "+443"],
    ["no port at all", undefined],
  ])("a port with %s", async (_case, port) => {
    const answer = await send(proxy, connect(port === undefined ? "a.example.org" : `a.example.org:${port}`));
    expect(status(answer)).toBe(400);
    expect(answer).toMatch(port === undefined ? /names no port/ : /not one of 1-65535/);
  });

  it("a request line that is not METHOD target HTTP/1.x", async () => {
    for (const line of [
      `CONNECT 127.0.0.1:${v4.port} HTTP/1.1 extra`,
      `CONNECT  127.0.0.1:${v4.port} HTTP/1.1`,
      `CONNECT 127.0.0.1:${v4.port} HTTP/2`,
    ]) {
      expect(status(await send(proxy, `${line}\r\n\r\n`)), line).toBe(400);
    }
  });

  it(
    "canonical forms pass: the name lower-cased without its trailing " + "dot reaches the resolver once; IPv6 compared after normalising",
    async () => {
      resolved.length = 0;
      expect(await send(proxy, connect(`API.Example.ORG.:${v4.port}`))).toContain("upstream says hi");
      expect(resolved).toEqual(["api.example.org"]);
      expect(await send(proxy, connect(`[0:0:0:0:0:0:0:1]:${v6.port}`))).toContain("upstream says hi");
      expect(await send(proxy, connect(`[0000::0001]:${v6.port}`))).toContain("upstream says hi");
      // The IPv4-mapped form of 127.0.0.1 is another literal: not granted.
      expect(status(await send(proxy, connect(`[::ffff:127.0.0.1]:${v4.port}`)))).toBe(403);
    },
  );
});

describe("a wildcard grant covers names below it by whole labels", () => {
  it.each([
    ["evil-example.org", 403],
    ["example.org", 403],
    ["a.example.org.evil.test", 403],
    ["example.org.evil.test", 403],
    ["aexample.org", 403],
    ["a.example.org", 200],
    ["deep.er.example.org", 200],
    ["xn--bcher-kva.example.org", 200],
  ])("%s → %i", async (host, expected) => {
    const proxy = await start([`*.example.org:${v4.port}`, `127.0.0.1:${v4.port}`], async () => ["127.0.0.1"]);
    const answer = await send(proxy, connect(`${host}:${v4.port}`));
    expect(status(answer)).toBe(expected);
    if (expected === 403) expect(answer).toContain(`network:${host}:${v4.port} not granted`);
  });
});

describe("a granted name never leads to the agent's machine or a metadata service", () => {
  it.each([
    ["127.0.0.1", "a loopback address"],
    ["127.45.6.7", "a loopback address"],
    ["0.0.0.0", "a this-host address"],
    ["169.254.169.254", "a link-local address"],
    ["100.100.100.200", "a cloud metadata address"],
    ["::1", "a loopback address"],
    ["::", "the unspecified address"],
    ["::ffff:127.0.0.1", "a loopback address"],
    ["fe80::1", "a link-local address"],
    ["fd00:ec2::254", "a cloud metadata address"],
  ])("a name resolving to %s is refused, naming the address as the capability", async (address, what) => {
    const lookups: string[] = [];
    const proxy = await start([`api.example.org:${v4.port}`], async (name) => {
      lookups.push(name);
      return [address];
    });
    const before = v4.connections;
    const answer = await send(proxy, connect(`api.example.org:${v4.port}`));
    expect(status(answer)).toBe(403);
    const shown = address.includes(":") ? `[${address === "::ffff:127.0.0.1" ? "::ffff:7f00:1" : address}]` : address;
    expect(answer).toContain(`agent-tools sandbox: network:${shown}:${v4.port} not granted (api.example.org resolves to`);
    expect(answer).toContain(what);
    expect(lookups).toEqual(["api.example.org"]);
    expect(v4.connections).toBe(before);
  });

  it(
    "a grant naming the address itself lets a name reach it; forbidden " +
      "answers are skipped and the checked address is the one connected to",
    async () => {
      const proxy = await start([`api.example.org:${v4.port}`, `127.0.0.1:${v4.port}`], async () => ["169.254.169.254", "127.0.0.1"]);
      const before = v4.connections;
      expect(await send(proxy, connect(`api.example.org:${v4.port}`))).toContain("upstream says hi");
      expect(v4.connections).toBe(before + 1);
    },
  );

  it("private networks stay reachable behind a name (company APIs live there); a failed resolution is a 502", async () => {
    for (const address of ["10.1.2.3", "172.16.0.1", "192.168.1.1", "100.64.0.1", "fd00::1", "2001:db8::1"])
      expect(addressForbiddenBehindName(address), address).toBeUndefined();
    const proxy = await start([`down.example.org:${v4.port}`], async () => {
      throw Object.assign(new Error("no such name"), { code: "ENOTFOUND" });
    });
    const answer = await send(proxy, connect(`down.example.org:${v4.port}`));
    expect(status(answer)).toBe(502);
    expect(answer).toContain("cannot resolve down.example.org: ENOTFOUND");
  });
});

describe("plain HTTP: the absolute URL is parsed by the same code, and the Host header is the URL's", () => {
  it("a Host header naming another host is replaced; the path and query pass; one request per connection", async () => {
    const proxy = await start([`127.0.0.1:${v4.port}`]);
    const heads = v4.heads.length;
    const answer = await send(
      proxy,
      `GET http://127.0.0.1:${v4.port}/path/a%20b?q=1 HTTP/1.1\r\nHost: metadata.internal\r\nhost: ` +
        `169.254.169.254\r\nAccept: */*\r\nProxy-Authorization: secret\r\n\r\n`,
    );
    expect(answer).toContain("upstream says hi");
    const head = v4.heads[heads]!;
    expect(head.split("\r\n")[0]).toBe("GET /path/a%20b?q=1 HTTP/1.1");
    expect(head.match(/^host:.*$/gim)).toEqual([`Host: 127.0.0.1:${v4.port}`]);
    expect(head).toContain("Accept: */*");
    expect(head).not.toContain("Proxy-Authorization");
    expect(head).toContain("Connection: close");
  });

  it.each([
    ["userinfo", (port: number) => `http://user:pw@127.0.0.1:${port}/`, /userinfo/],
    ["userinfo hiding the host", (port: number) => `http://127.0.0.1:${port}@evil.test/`, /userinfo/],
    ["a fragment", (port: number) => `http://127.0.0.1:${port}/#x`, /fragment/],
    ["https", (port: number) => `https://127.0.0.1:${port}/`, /use CONNECT for https/],
    ["a relative target", () => "/index.html", /CONNECT host:port or absolute http/],
    ["a short IPv4 form", (port: number) => `http://127.1:${port}/`, /canonical IPv4/],
    ["%-encoding in the host", (port: number) => `http://%31%32%37.0.0.1:${port}/`, /%-encoding/],
    ["non-ASCII in the path", (port: number) => `http://127.0.0.1:${port}/\u00e9`, /non-ASCII/],
  ])("%s is a 400", async (_case, target, reason) => {
    const proxy = await start([`127.0.0.1:${v4.port}`, "evil.test"]);
    const before = v4.connections;
    const answer = await send(proxy, `GET ${target(v4.port)} HTTP/1.1\r\n\r\n`);
    expect(status(answer)).toBe(400);
    expect(answer).toMatch(reason);
    expect(v4.connections).toBe(before);
  });
});

describe("grants are read by the same parser as requests", () => {
  it.each([
    ["127.0.0.1\0.example.org", /NUL/],
    ["*.127.0.0.1", /wildcard covers names below a DNS name/],
    ["127.1:8080", /canonical IPv4/],
    ["0x7f.0.0.1", /canonical IPv4/],
    ["[fe80::1%eth0]:443", /zone id/],
    ["::1", /colon/],
    ["bücher.example", /punycode/],
    ["api%2eexample.com", /%-encoding/],
    ["user@api.example.com", /userinfo/],
    ["*.*.example.com", /"\*"/],
    ["api.example.com:0443", /not one of 1-65535/],
  ])("%j is refused at upload and by the SDK", (entry, reason) => {
    const [problem] = toolCapabilityProblems({ network: [entry] });
    expect(problem).toMatch(/^tool_capabilities\.network\[0\] /);
    expect(problem).toMatch(reason);
    expect(() => readToolCapabilities({ network: [entry] })).toThrow(TypeError);
  });

  it("valid entries are shown canonical, as rules name them", () => {
    expect(
      readToolCapabilities({
        network: ["API.Example.com.", "[2001:DB8:0:0:0:0:0:1]:443", "*.Example.ORG", "192.0.2.1:80", "xn--bcher-kva.example"],
      }).network,
    ).toEqual(["api.example.com", "[2001:db8::1]:443", "*.example.org", "192.0.2.1:80", "xn--bcher-kva.example"]);
    expect(networkTargets("[2001:DB8::1]:8443")).toEqual({ host: "2001:db8::1", ports: [8443] });
    expect(networkTargets("api.example.com")).toEqual({ host: "api.example.com", ports: [80, 443] });
  });

  it("the canonical IPv6 text is RFC 5952's, as the URL standard writes it", () => {
    for (const address of [
      "::",
      "::1",
      "1::",
      "1:0:0:2::3",
      "1:0:0:2:0:0:0:3",
      "0:0:1:0:0:1:0:0",
      "fe80::a:b:c:d",
      "::ffff:1.2.3.4",
      "1:2:3:4:5:6:7:8",
    ]) {
      const parsed = networkTargets(`[${address}]:1`).host;
      expect(`[${parsed}]`, address).toBe(new URL(`http://[${address}]/`).hostname);
    }
  });
});
