/**
 * The pages over real HTTP (and through the fetch Lambda's handler): the headers every page
 * carries, whatever its status; caching like the API; client mistakes as HTML pages with the
 * API's status; no secret in any page; the CSP allowing exactly the inline script and style sent.
 */
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createGroupHandler } from "../../../functions/lambda/group-handler.js";
import { FETCH_ROUTES } from "../../../functions/routes/fetch-routes.js";
import { createRegistryDeps } from "../../../functions/registry-deps.js";
import { CONTENT_SECURITY_POLICY } from "../../../functions/web/page-headers.js";
import { Capabilities } from "../../../functions/web/views/capabilities.js";
import { echoToolBundle, uploadOrThrow } from "../search/search-bundles.js";
import { apiGatewayEvent, resultBytes, type ApiGatewayResult } from "../../support/api-gateway-event.js";
import { startTestRegistry, storageEnv, type TestRegistry } from "../../support/registry.js";

let registry: TestRegistry;

beforeAll(async () => {
  registry = await startTestRegistry();
  for (const version of ["1.0.0", "2.0.0"]) {
    await uploadOrThrow(
      registry.url,
      registry.token,
      echoToolBundle({
        tool_id: "page-tool",
        version,
        tool_type: "utility",
        tool_tags: ["demo"],
        tool_search_description: "Demonstrates pages",
      }),
    );
  }
});

afterAll(async () => {
  await registry?.close();
});

const get = (path: string, init?: RequestInit) => fetch(`${registry.url}${path}`, init);

const PAGES: [path: string, status: number][] = [
  ["/", 200],
  ["/?q=demonstrates", 200],
  ["/?type=utility&tag=demo&page=1", 200],
  ["/t/page-tool", 200],
  ["/t/page-tool/1.0.0", 200],
  ["/t/page-tool?include_yanked=true", 200],
  [`/t/page-tool/${"a".repeat(1100)}`, 400],
  ["/t/page-tool/v1.0.0", 200],
  [`/t/${"x".repeat(3000)}`, 404],
  [`/t/${"x".repeat(3000)}/1.0.0`, 404],
  ["/t/page-tool/1.0.0?include_yanked=maybe", 400],
  ["/t/no-such-tool", 404],
  ["/t/page-tool/9.9.9", 404],
  ["/?page=0", 400],
  ["/?page=abc", 400],
  [`/?q=${"x".repeat(600)}`, 400],
];

describe("every page", () => {
  it.each(PAGES)("%s answers %i as HTML with the CSP and hardening headers", async (path, status) => {
    const response = await get(path);
    expect(response.status).toBe(status);
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(response.headers.get("content-security-policy")).toBe(CONTENT_SECURITY_POLICY);
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("x-frame-options")).toBe("DENY");
    expect(response.headers.get("referrer-policy")).toBe("no-referrer");
    const html = await response.text();
    expect(html.startsWith('<!DOCTYPE html><html lang="en">')).toBe(true);
    // No secret reaches a page: neither the write token nor the storage credentials.
    expect(html).not.toContain(registry.token);
    expect(html).not.toContain(registry.local.config.credentials!.secretAccessKey);
  });

  it("allows by hash exactly the one inline script and stylesheet it sends", async () => {
    const html = await (await get("/t/page-tool")).text();
    const inline = (tag: string) => [...html.matchAll(new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`, "g"))].map((match) => match[1]!);
    const hash = (text: string) => `'sha256-${createHash("sha256").update(text).digest("base64")}'`;
    const [script, ...otherScripts] = inline("script");
    const [style, ...otherStyles] = inline("style");
    expect(otherScripts).toEqual([]);
    expect(otherStyles).toEqual([]);
    expect(CONTENT_SECURITY_POLICY).toContain(`script-src ${hash(script!)};`);
    expect(CONTENT_SECURITY_POLICY).toContain(`style-src ${hash(style!)};`);
    expect(CONTENT_SECURITY_POLICY).toMatch(/^default-src 'none';/);
    expect(CONTENT_SECURITY_POLICY).not.toContain("unsafe");
  });

  it("explains a client mistake on the page, as the API's detail does", async () => {
    await expect((await get("/?page=abc")).text()).resolves.toContain("page must be a whole number from 1 to 1000");
    await expect((await get(`/?q=${"x".repeat(600)}`)).text()).resolves.toContain("the limit is 512");
    const missingVersion = await (await get("/t/page-tool/9.9.9")).text();
    expect(missingVersion).toContain("page-tool has no version 9.9.9; its newest versions are 2.0.0, 1.0.0");
  });
});

describe("caching", () => {
  it("lets a versioned page be cached, not the latest page or the catalogue", async () => {
    expect((await get("/t/page-tool/1.0.0")).headers.get("cache-control")).toBe("public, max-age=300");
    expect((await get("/t/page-tool")).headers.get("cache-control")).toBeNull();
    // The catalogue is a public read like GET /tools: no-cache here, briefly at the edge on AWS (edgeCacheSeconds).
    expect((await get("/")).headers.get("cache-control")).toBe("no-cache");
  });

  it("answers HEAD like GET, without a body", async () => {
    const response = await get("/t/page-tool", { method: "HEAD" });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-security-policy")).toBe(CONTENT_SECURITY_POLICY);
    expect(await response.text()).toBe("");
  });
});

describe("on AWS", () => {
  it("the fetch function serves the pages, with the API's public origin in the snippets", async () => {
    const handler = createGroupHandler("fetch", FETCH_ROUTES, createRegistryDeps, { env: storageEnv(registry) });
    const call = async (url: string) => (await handler(apiGatewayEvent({ method: "GET", url }), {} as never)) as ApiGatewayResult;
    const catalogue = await call("/?q=demonstrates");
    expect(catalogue.statusCode).toBe(200);
    expect(resultBytes(catalogue).toString("utf8")).toContain('href="/t/page-tool"');
    const page = await call("/t/page-tool/1.0.0");
    expect(page.headers?.["content-security-policy"]).toBe(CONTENT_SECURITY_POLICY);
    expect(page.headers?.["cache-control"]).toBe("public, max-age=300");
    expect(resultBytes(page).toString("utf8")).toContain(
      "https://abc123.execute-api.eu-west-1.amazonaws.com/tools/page-tool/versions/1.0.0/archive",
    );
  });
});

describe("capabilities", () => {
  it("shows each declared capability as written, and says when there are none", () => {
    const declared = String(
      Capabilities({
        declared: { network: ["api.example.com:443"], env: ["EXAMPLE_API_KEY"], filesystem: [{ path: "workspace", access: "read" }] },
      }),
    );
    expect(declared).toContain("<dt>network</dt><dd><code>api.example.com:443</code></dd>");
    expect(declared).toContain("<dt>env</dt><dd><code>EXAMPLE_API_KEY</code></dd>");
    expect(declared).toContain("<dt>filesystem</dt><dd><code>path: workspace, access: read</code></dd>");
    expect(declared).not.toContain("No capabilities declared");
    const someKindsEmpty = String(Capabilities({ declared: { network: [], env: ["EXAMPLE_API_KEY"], filesystem: [] } }));
    expect(someKindsEmpty).not.toContain("network");
    expect(someKindsEmpty).toContain("<dt>env</dt>");
    for (const none of [undefined, {}, null, "network", { network: [], env: [], filesystem: [] }])
      expect(String(Capabilities({ declared: none }))).toContain("No capabilities declared");
  });
});
