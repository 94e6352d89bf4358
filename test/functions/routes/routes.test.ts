// The registry's HTTP API end to end: real server, real emulators, real HTTP.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { get as httpGet } from "node:http";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FIXTURE_TOOLS_DIR, fixtureBundle, type FixtureBundle } from "../../support/bundles.js";
import { startTestRegistry, uploadBundle, type TestRegistry } from "../../support/registry.js";
import { storageSnapshot } from "../storage/storage-snapshot.js";

let registry: TestRegistry;
let catalogChanges = 0;
let textStats: FixtureBundle;
let binary: FixtureBundle;

const ORIGINAL_FIELDS = [
  "default_tool_usage_credentials",
  "tool_api_spec",
  "tool_custom_actions_dsl_map",
  "tool_execution_mode",
  "tool_id",
  "tool_man_page_doc",
  "tool_metadata",
  "tool_parameters",
  "tool_policy_rule_uri",
  "tool_runtime_type",
  "tool_search_description",
  "tool_service_url",
  "tool_settings",
  "tool_source_code_link",
  "tool_system_function_rpc_id",
  "tool_tags",
  "tool_type",
  "tool_validation_mode",
  "tool_validation_policy_rule_uri",
];
const REGISTRY_FIELDS = [
  "owner",
  "published_at",
  "status",
  "tool_archive_integrity",
  "tool_archive_sha256",
  "tool_archive_size",
  "updated_at",
  "version",
];

const get = (path: string, init?: RequestInit) => fetch(`${registry.url}${path}`, init);
const getJson = async (path: string, init?: RequestInit) => {
  const response = await get(path, init);
  return { status: response.status, headers: response.headers, body: (await response.json()) as any };
};
const write = (method: string, path: string, body?: unknown, token: string | null = registry.token) =>
  fetch(`${registry.url}${path}`, {
    method,
    headers: { "content-type": "application/json", ...(token === null ? {} : { authorization: `Bearer ${token}` }) },
    ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) }),
  });

beforeAll(async () => {
  registry = await startTestRegistry({ onCatalogChange: () => void catalogChanges++ });
  textStats = await fixtureBundle("text-stats");
  binary = await fixtureBundle("binary-increment");
});

afterAll(async () => {
  await registry?.close();
});

describe("upload and fetch", () => {
  it("uploads bundles packed by the documented shell steps with the original answer", async () => {
    expect(await uploadBundle(registry.url, registry.token, textStats.bundle)).toEqual({
      status: 200,
      body: { message: "Tool uploaded successfully", tool_id: "text-stats", version: "1.0.0" },
    });
    const uploaded = await uploadBundle(registry.url, registry.token, binary.bundle);
    expect(uploaded.status).toBe(200);
    expect(catalogChanges).toBe(2);
  });

  it("serves the latest entry: the original fields with defaults plus the registry's own", async () => {
    const { status, body } = await getJson("/tools/text-stats");
    expect(status).toBe(200);
    expect(Object.keys(body)).toEqual([...ORIGINAL_FIELDS, ...REGISTRY_FIELDS].sort());
    expect(body.tool_man_page_doc).toBe(readFileSync(join(FIXTURE_TOOLS_DIR, "text-stats/tool.md"), "utf8"));
    expect(body.tool_settings).toEqual({});
    expect(body.tool_service_url).toBe("");
    expect(body.version).toBe("1.0.0");
    expect(body.owner).toBe("admin");
    expect(body.status).toBe("active");
    expect(body.tool_archive_sha256).toBe(createHash("sha256").update(textStats.toolZip).digest("hex"));
    expect(body.tool_archive_integrity).toBe(`sha512-${createHash("sha512").update(textStats.toolZip).digest("base64")}`);
    expect(body.tool_archive_size).toBe(textStats.toolZip.byteLength);
    expect(body.tool_source_code_link).toBe(`${registry.url}/tools/text-stats/versions/1.0.0/archive`);
    expect(Date.parse(body.published_at)).not.toBeNaN();
  });

  it("downloads byte-identical archives with length, type, ETag and digest headers", async () => {
    const entry = (await getJson("/tools/text-stats")).body;
    const response = await fetch(entry.tool_source_code_link);
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(response.status).toBe(200);
    expect(bytes.equals(Buffer.from(textStats.toolZip))).toBe(true);
    expect(response.headers.get("content-type")).toBe("application/zip");
    expect(response.headers.get("content-length")).toBe(String(bytes.byteLength));
    expect(response.headers.get("etag")).toBe(`"${entry.tool_archive_sha256}"`);
    expect(response.headers.get("digest")).toBe(`sha-256=${createHash("sha256").update(bytes).digest("base64")}`);
    expect(response.headers.get("cache-control")).toBe("no-cache");

    const revalidated = await fetch(entry.tool_source_code_link, { headers: { "if-none-match": `"${entry.tool_archive_sha256}"` } });
    expect(revalidated.status).toBe(304);
    expect((await revalidated.arrayBuffer()).byteLength).toBe(0);

    const latest = await get("/tools/binary-increment/archive");
    expect(Buffer.from(await latest.arrayBuffer()).equals(Buffer.from(binary.toolZip))).toBe(true);
    expect(latest.headers.get("content-type")).toBe("application/gzip");
    expect(latest.headers.get("cache-control")).toBe("no-cache");
  });

  it("answers entries with an ETag that a conditional GET revalidates, and that changes with the entry", async () => {
    const first = await get("/tools/text-stats/versions/1.0.0");
    const tag = first.headers.get("etag")!;
    expect(tag).toMatch(/^W\/"[0-9a-f]{64}\.\d+"$/);
    expect(first.headers.get("cache-control")).toBe("no-cache");
    for (const path of ["/tools/text-stats/versions/1.0.0", "/tools/text-stats"]) {
      const unchanged = await get(path, { headers: { "if-none-match": tag } });
      expect(unchanged.status).toBe(304);
      expect((await unchanged.arrayBuffer()).byteLength).toBe(0);
      expect((await get(path, { headers: { "if-none-match": 'W/"other"' } })).status).toBe(200);
    }
    const updated = await fetch(`${registry.url}/tools/text-stats`, {
      method: "PUT",
      headers: { authorization: `Bearer ${registry.token}`, "content-type": "application/json" },
      body: JSON.stringify({ tool_search_description: "Counts words, revalidated" }),
    });
    expect(updated.status).toBe(200);
    const changed = await get("/tools/text-stats/versions/1.0.0", { headers: { "if-none-match": tag } });
    expect(changed.status).toBe(200);
    expect(changed.headers.get("etag")).not.toBe(tag);
  });

  it("ignores X-Forwarded-Proto/Host from a client that is not a trusted proxy (test/functions/http/request-origin.test.ts)", async () => {
    const { body } = await getJson("/tools/text-stats", {
      headers: { "x-forwarded-proto": "https", "x-forwarded-host": "tools.example.org" },
    });
    expect(body.tool_source_code_link).toBe(`${registry.url}/tools/text-stats/versions/1.0.0/archive`);
  });

  it("builds links from the Host the client used, so other machines get a reachable URL", async () => {
    const { port } = new URL(registry.url);
    const body = await new Promise<string>((resolve, reject) => {
      const request = httpGet({ host: "127.0.0.1", port, path: "/tools/text-stats", headers: { host: "tools.lan:6000" } }, (response) => {
        let text = "";
        response.on("data", (chunk: Buffer) => (text += chunk.toString()));
        response.on("end", () => resolve(text));
      });
      request.on("error", reject);
    });
    expect(JSON.parse(body).tool_source_code_link).toBe("http://tools.lan:6000/tools/text-stats/versions/1.0.0/archive");
  });

  it("accepts new versions: latest is the highest semver, versions newest first, each version revalidated", async () => {
    for (const version of ["1.10.0", "0.9.0", "1.2.0"]) {
      const { bundle } = await fixtureBundle("text-stats", { version });
      expect((await uploadBundle(registry.url, registry.token, bundle)).body).toMatchObject({ version });
    }
    expect((await getJson("/tools/text-stats")).body.version).toBe("1.10.0");
    const versions = await getJson("/tools/text-stats/versions");
    expect(versions.body.map((entry: { version: string }) => entry.version)).toEqual(["1.10.0", "1.2.0", "1.0.0", "0.9.0"]);
    const one = await getJson("/tools/text-stats/versions/1.2.0");
    expect(one.body.version).toBe("1.2.0");
    expect(one.headers.get("cache-control")).toBe("no-cache");
    const missing = await getJson("/tools/text-stats/versions/7.7.7");
    expect(missing.status).toBe(404);
    expect(missing.body.error).toBe("Tool not found");
    expect(missing.body.detail).toMatch(/7\.7\.7/);
  });

  it("answers 404 Tool not found as JSON with a detail", async () => {
    for (const path of ["/tools/nope", "/tools/nope/versions", "/tools/nope/archive", "/tools/nope/versions/1.0.0/archive"]) {
      const { status, body } = await getJson(path);
      expect(status).toBe(404);
      expect(body.error).toBe("Tool not found");
      expect(body.detail).toMatch(/nope/);
    }
  });
});

describe("listing and queries", () => {
  beforeAll(async () => {
    for (const id of ["list-1", "list-2", "list-3"]) {
      const { bundle } = await fixtureBundle("text-stats", {
        spec: { tool_id: id, tool_tags: [id === "list-2" ? "special" : "plain"], tool_search_description: `Tool ${id} (a.*b) Counts` },
      });
      expect((await uploadBundle(registry.url, registry.token, bundle)).status).toBe(200);
    }
  });

  it("lists latest entries as a bare array, paged through Link rel=next", async () => {
    const seen: string[] = [];
    let next: string | undefined = `${registry.url}/tools?limit=2`;
    while (next) {
      const response = await fetch(next);
      const page = (await response.json()) as { tool_id: string; version: string }[];
      expect(Array.isArray(page)).toBe(true);
      expect(page.length).toBeLessThanOrEqual(2);
      seen.push(...page.map((entry) => entry.tool_id));
      if (page.some((entry) => entry.tool_id === "text-stats"))
        expect(page.find((e) => e.tool_id === "text-stats")!.version).toBe("1.10.0");
      next = /<([^>]+)>;\s*rel="next"/.exec(response.headers.get("link") ?? "")?.[1];
      if (next) expect(next).toMatch(/limit=2/);
    }
    expect(seen).toEqual(["binary-increment", "list-1", "list-2", "list-3", "text-stats"]);
  });

  it("filters the list by type, tag and updated_since", async () => {
    expect((await getJson("/tools?tag=special")).body.map((e: { tool_id: string }) => e.tool_id)).toEqual(["list-2"]);
    const binaryType = (await getJson("/tools/binary-increment")).body.tool_type;
    expect((await getJson(`/tools?type=${encodeURIComponent(binaryType)}`)).body.map((e: { tool_id: string }) => e.tool_id)).toContain(
      "binary-increment",
    );
    expect((await getJson("/tools?updated_since=2999-01-01T00:00:00Z")).body).toEqual([]);
    expect((await getJson("/tools?updated_since=2000-01-01")).body.length).toBe(5);
  });

  it("rejects a bad limit, cursor or updated_since with 400", async () => {
    for (const query of ["limit=0", "limit=1001", "limit=abc", "limit=1.5", "cursor=%25%25bad", "updated_since=yesterday"]) {
      const { status, body } = await getJson(`/tools?${query}`);
      expect(status, query).toBe(400);
      expect(body.detail).toEqual(expect.any(String));
    }
  });

  it("answers the five query/by-* filters with bare arrays of latest entries", async () => {
    const ids = async (path: string) => (await getJson(path)).body.map((e: { tool_id: string }) => e.tool_id).sort();
    const textType = (await getJson("/tools/text-stats")).body.tool_type;
    expect(await ids(`/tools/query/by-type?type=${encodeURIComponent(textType)}`)).toEqual(["list-1", "list-2", "list-3", "text-stats"]);
    expect(await ids("/tools/query/by-tag?tag=special")).toEqual(["list-2"]);
    expect(await ids("/tools/query/by-keyword?keyword=TOOL%20LIST-3")).toEqual(["list-3"]);
    // Plain substring, never a regex: ".*" only matches where those characters literally appear.
    expect(await ids("/tools/query/by-keyword?keyword=a.*b")).toEqual(["list-1", "list-2", "list-3"]);
    expect(await ids("/tools/query/by-keyword?keyword=.*")).toEqual(["list-1", "list-2", "list-3"]);
    expect(await ids("/tools/query/by-execution-mode?mode=no-such-mode")).toEqual([]);
    expect(await ids("/tools/query/by-policy-uri?uri=policy://none")).toEqual([]);
    const missing = await getJson("/tools/query/by-tag");
    expect(missing.status).toBe(400);
    expect(missing.body.detail).toMatch(/\?tag=/);
  });
});

describe("update and delete", () => {
  it("updates descriptive fields with PUT and keeps registry-owned ones", async () => {
    const before = (await getJson("/tools/list-1")).body;
    const response = await write("PUT", "/tools/list-1", { tool_search_description: "Updated words", tool_tags: ["fresh"] });
    expect(await response.json()).toEqual({ message: "Tool updated successfully" });
    const after = (await getJson("/tools/list-1")).body;
    expect(after.tool_search_description).toBe("Updated words");
    expect(after.tool_tags).toEqual(["fresh"]);
    expect(after.tool_archive_sha256).toBe(before.tool_archive_sha256);
    expect(after.published_at).toBe(before.published_at);
    expect(after.updated_at > before.updated_at).toBe(true);
    expect((await getJson("/tools/query/by-tag?tag=fresh")).body.map((e: { tool_id: string }) => e.tool_id)).toEqual(["list-1"]);
  });

  it("resets a field PUT as null to its default, as an upload does, so the filters that read it keep working", async () => {
    const response = await write("PUT", "/tools/list-3", { tool_tags: null, tool_settings: null, tool_type: null });
    expect(response.status).toBe(200);
    const after = (await getJson("/tools/list-3")).body;
    expect([after.tool_tags, after.tool_settings, after.tool_type]).toEqual([[], {}, ""]);
    expect((await getJson("/tools/query/by-tag?tag=anything")).status).toBe(200);
    expect((await getJson("/tools/query/by-type?type=anything")).status).toBe(200);
  });

  it("accepts a GET → edit → PUT round trip of the whole entry", async () => {
    const shown = (await getJson("/tools/list-2")).body;
    const response = await write("PUT", "/tools/list-2", { ...shown, tool_search_description: "Round trip" });
    expect(response.status).toBe(200);
    expect((await getJson("/tools/list-2")).body.tool_search_description).toBe("Round trip");
  });

  it("refuses bad PUTs with JSON 4xx errors", async () => {
    const cases: [Response, number, string?][] = [
      [await write("PUT", "/tools/list-1", {}), 400, "Missing update payload"],
      [await write("PUT", "/tools/list-1", "null"), 400, "Missing update payload"],
      [await write("PUT", "/tools/list-1", ""), 400, "Missing update payload"],
      [await write("PUT", "/tools/list-1", "{not json"), 400],
      [await write("PUT", "/tools/list-1", { tool_runtime_type: "binary" }), 0],
      [await write("PUT", "/tools/list-1", { tool_tags: "not-a-list" }), 0],
      [await write("PUT", "/tools/nope", { tool_search_description: "x" }), 404, "Tool not found"],
      [await write("PUT", "/tools/list-1", { tool_search_description: "x" }, null), 401],
      [await write("PUT", "/tools/list-1", { tool_search_description: "x" }, "wrong"), 401],
    ];
    for (const [response, status, error] of cases) {
      const body = (await response.json()) as { error: string; detail: string };
      if (status === 0) expect(response.status).toBeGreaterThanOrEqual(400);
      else expect(response.status).toBe(status);
      expect(response.status).toBeLessThan(500);
      if (error) expect(body.error).toBe(error);
      expect(body.detail).toEqual(expect.any(String));
    }
    expect((await getJson("/tools/list-1")).body.tool_runtime_type).toBe("python");
  });

  it("deletes every version and its unshared archives; the id can be uploaded again", async () => {
    const entry = (await getJson("/tools/binary-increment")).body;
    expect((await write("DELETE", "/tools/binary-increment", undefined, null)).status).toBe(401);
    const changesBefore = catalogChanges;
    const response = await write("DELETE", "/tools/binary-increment");
    expect(await response.json()).toEqual({ message: "Tool deleted successfully" });
    expect(catalogChanges).toBe(changesBefore + 1);
    expect((await getJson("/tools/binary-increment")).status).toBe(404);
    expect((await storageSnapshot(registry.local)).objects).not.toContain(`archives/${entry.tool_archive_sha256}`);
    const again = await write("DELETE", "/tools/binary-increment");
    expect(again.status).toBe(404);
    expect(((await again.json()) as { error: string }).error).toBe("Tool not found");

    expect((await uploadBundle(registry.url, registry.token, binary.bundle)).status).toBe(200);
    const download = await get("/tools/binary-increment/archive");
    expect(Buffer.from(await download.arrayBuffer()).equals(Buffer.from(binary.toolZip))).toBe(true);
  });

  it("keeps an archive that another version still references", async () => {
    // list-1..3 share text-stats' code bytes: deleting one must not remove the shared object.
    const sha = (await getJson("/tools/list-3")).body.tool_archive_sha256;
    expect((await write("DELETE", "/tools/list-3")).status).toBe(200);
    expect((await storageSnapshot(registry.local)).objects).toContain(`archives/${sha}`);
    expect((await get("/tools/list-2/archive")).status).toBe(200);
  });
});

describe("routing", () => {
  it("serves GET /health", async () => {
    expect(await getJson("/health")).toMatchObject({ status: 200, body: { status: "ok" } });
  });

  it("answers unknown routes with JSON 404 and wrong methods with JSON 405 + Allow", async () => {
    const unknown = await getJson("/no/such/route");
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get("content-type")).toMatch(/application\/json/);
    expect(unknown.body.detail).toMatch(/no\/such\/route/);

    const wrong = await fetch(`${registry.url}/tools/text-stats`, { method: "PATCH" });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get("allow")).toMatch(/GET.*PUT.*DELETE|PUT.*DELETE.*GET|DELETE.*GET/);
    expect(((await wrong.json()) as { detail: string }).detail).toMatch(/PATCH/);
    expect((await fetch(`${registry.url}/tools`, { method: "DELETE" })).status).toBe(405);
    expect((await fetch(`${registry.url}/health`, { method: "POST" })).status).toBe(405);
  });
});
