/**
 * CloudFront passes the API only the viewer headers the stack names (infra/edge-request-headers.ts):
 * a header the functions read that is not named would silently never arrive behind the distribution.
 * So every header name the functions' code reads is found here, in their sources, and must be named
 * (forwarded, in the cache key, or not needed with a reason).
 */
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { VIEWER_ADDRESS_HEADER } from "../../functions/http/client-address.js";
import { ORIGIN_VERIFY_HEADER } from "../../functions/http/origin-secret.js";
import { SIGNATURE_HEADER } from "../../functions/trust/verify-signature.js";
import { CACHE_KEY_HEADERS, NOT_FORWARDED_HEADERS, ORIGIN_REQUEST_HEADERS } from "../../infra/edge-request-headers.js";

const FUNCTIONS_DIR = new URL("../../functions/", import.meta.url).pathname;
/** `c.req.header("x")`, `headers.get("x")`, `headers["x"]` (event headers). */
const HEADER_READS = [/\.header\("([A-Za-z0-9-]+)"\)/g, /headers\.get\("([A-Za-z0-9-]+)"\)/g, /headers\??\.?\["([a-z0-9-]+)"\]/g];
/** The same with a named constant (`c.req.header(SIGNATURE_HEADER)`, `headers[ORIGIN_VERIFY_HEADER]`). */
const NAMED_HEADER_READS = [/\.header\(([A-Z][A-Z0-9_]+)\)/g, /headers\.get\(([A-Z][A-Z0-9_]+)\)/g, /headers\??\.?\[([A-Z][A-Z0-9_]+)\]/g];
const HEADER_CONSTANTS: Record<string, string> = { SIGNATURE_HEADER, VIEWER_ADDRESS_HEADER, ORIGIN_VERIFY_HEADER };

async function sourceFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name) && !entry.parentPath.includes(`${join("functions", "local")}`))
    .map((entry) => join(entry.parentPath, entry.name));
}

/** Header names the registry's request handling reads (response headers it sets are `c.header(name, value)`, two arguments). */
async function headersRead(): Promise<Set<string>> {
  const names = new Set<string>();
  for (const file of await sourceFiles(FUNCTIONS_DIR)) {
    const source = await readFile(file, "utf8");
    for (const pattern of HEADER_READS) for (const match of source.matchAll(pattern)) names.add(match[1]!.toLowerCase());
    for (const pattern of NAMED_HEADER_READS) {
      for (const [, constant] of source.matchAll(pattern)) {
        const name = HEADER_CONSTANTS[constant!];
        if (name === undefined) throw new Error(`${file} reads the header named by ${constant}: add it to HEADER_CONSTANTS here`);
        names.add(name);
      }
    }
  }
  return names;
}

describe("request headers behind CloudFront", () => {
  it("names every header the functions read: forwarded, in the cache key, or not needed for a stated reason", async () => {
    const named = new Set([...CACHE_KEY_HEADERS, ...ORIGIN_REQUEST_HEADERS, ...NOT_FORWARDED_HEADERS].map((header) => header.name));
    const read = await headersRead();
    // The scan finds what it should (a broken pattern would find nothing and pass).
    expect([...read]).toEqual(
      expect.arrayContaining(["authorization", "content-type", "if-none-match", SIGNATURE_HEADER, VIEWER_ADDRESS_HEADER]),
    );
    expect([...read].filter((name) => !named.has(name))).toEqual([]);
  });

  it("keeps each header in one list, with a reason", () => {
    const all = [...CACHE_KEY_HEADERS, ...ORIGIN_REQUEST_HEADERS, ...NOT_FORWARDED_HEADERS];
    expect(new Set(all.map((header) => header.name)).size).toBe(all.length);
    for (const header of all) {
      expect(header.name).toBe(header.name.toLowerCase());
      expect(header.reason.length, header.name).toBeGreaterThan(20);
    }
    // CloudFront refuses these in an origin request policy (Authorization) or they would break the API origin (Host).
    expect(ORIGIN_REQUEST_HEADERS.map((header) => header.name)).not.toEqual(expect.arrayContaining(["authorization"]));
    expect(ORIGIN_REQUEST_HEADERS.map((header) => header.name)).not.toContain("host");
  });
});
