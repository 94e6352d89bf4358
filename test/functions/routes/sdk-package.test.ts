/**
 * `GET /sdk` and `GET /sdk/<file>`: the local registry packs this checkout's SDK with npm and
 * serves the exact tarball `npm pack` makes, with its integrity, cacheable and revalidated; the
 * fetch Lambda serves what the stack stored (`SDK_PACKAGE`), checked against its sha256 first; a
 * registry without a package, an unbuilt SDK and a wrong `SDK_PACKAGE` each say what to do.
 */
import { createHash } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../../functions/config.js";
import { createLambdaHandler } from "../../../functions/lambda/create-lambda-handler.js";
import { CHECKOUT_SDK_DIR } from "../../../functions/local/local-sdk-package.js";
import { packSdk, type PackedSdk } from "../../../functions/sdk-package/pack-sdk.js";
import { SDK_PACKAGE_CACHE_CONTROL } from "../../../functions/storage/sdk-package-store.js";
import { apiGatewayEvent, type ApiGatewayResult } from "../../support/api-gateway-event.js";
import { fixtureBundle } from "../../support/bundles.js";
import { startTestRegistry, storageEnv, uploadBundle, type TestRegistry } from "../../support/registry.js";

let registry: TestRegistry;
let packed: PackedSdk;
let packDir: string;

beforeAll(async () => {
  packDir = await mkdtemp(join(tmpdir(), "agent-tools-sdk-pack-test-"));
  [registry, packed] = await Promise.all([startTestRegistry(), packSdk(CHECKOUT_SDK_DIR, packDir)]);
  expect((await uploadBundle(registry.url, registry.token, (await fixtureBundle("text-stats")).bundle)).status).toBe(200);
}, 120_000);
afterAll(async () => {
  await registry?.close();
  await rm(packDir, { recursive: true, force: true });
});

const sha512 = (bytes: Uint8Array) => `sha512-${createHash("sha512").update(bytes).digest("base64")}`;

describe("the local registry's SDK package", () => {
  it("describes it at /sdk: name, version, file, URL, digests and the commands that install it", async () => {
    const response = await fetch(`${registry.url}/sdk`);
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-cache");
    const url = `${registry.url}/sdk/${packed.file}`;
    expect(await response.json()).toEqual({
      name: "@agent-tools/sdk",
      version: packed.version,
      file: packed.file,
      url,
      integrity: packed.integrity,
      sha256: packed.sha256,
      size: packed.size,
      install: `npm install ${url}`,
      run: `npx --yes -p ${url} agent-tools --help`,
    });
    expect(packed.file).toBe(`agent-tools-sdk-${packed.version}.tgz`);
  });

  it("serves the tarball npm pack makes, cacheable for minutes and revalidated by its sha256", async () => {
    const response = await fetch(`${registry.url}/sdk/${packed.file}`);
    expect(response.status).toBe(200);
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect(sha512(bytes)).toBe(packed.integrity);
    expect(Object.fromEntries(response.headers)).toMatchObject({
      "content-type": "application/octet-stream",
      "content-length": String(packed.size),
      "cache-control": SDK_PACKAGE_CACHE_CONTROL,
      etag: `"${packed.sha256}"`,
      "content-disposition": `attachment; filename="${packed.file}"`,
      digest: `sha-256=${Buffer.from(packed.sha256, "hex").toString("base64")}, sha-512=${packed.integrity.slice(7)}`,
    });
    const again = await fetch(`${registry.url}/sdk/${packed.file}`, { headers: { "if-none-match": `"${packed.sha256}"` } });
    expect(again.status).toBe(304);
    expect(again.headers.get("cache-control")).toBe(SDK_PACKAGE_CACHE_CONTROL);
  });

  it("answers any other file name with a 404 naming the one it serves", async () => {
    for (const file of ["agent-tools-sdk-9.9.9.tgz", "..%2Fpackage.json", "index.html"]) {
      const response = await fetch(`${registry.url}/sdk/${file}`);
      expect(response.status, file).toBe(404);
      const body = (await response.json()) as { error: string; detail: string };
      expect(body.error).toBe("SDK package not found");
      expect(body.detail).toContain(`/sdk/${packed.file}`);
    }
  });

  it("says the SDK must be built when its dist/ is missing, and packs nothing", async () => {
    const unbuilt = await mkdtemp(join(tmpdir(), "agent-tools-unbuilt-sdk-"));
    await writeFile(join(unbuilt, "package.json"), JSON.stringify({ name: "@agent-tools/sdk", version: "0.0.1" }));
    const other = await startTestRegistry({ sdkDir: unbuilt });
    try {
      for (const path of ["/sdk", "/sdk/agent-tools-sdk-0.0.1.tgz"]) {
        const response = await fetch(`${other.url}${path}`);
        expect(response.status, path).toBe(503);
        expect(((await response.json()) as { detail: string }).detail).toContain("is not built (no dist/index.js)");
      }
    } finally {
      await other.close();
      await rm(unbuilt, { recursive: true, force: true });
    }
  });
});

describe("the fetch Lambda's SDK package (what the stack deployed)", () => {
  type Handler = (event: unknown) => Promise<ApiGatewayResult>;
  const deployed = () => ({
    name: packed.name,
    version: packed.version,
    file: packed.file,
    integrity: packed.integrity,
    sha256: packed.sha256,
    size: packed.size,
  });
  const handler = (sdkPackage?: unknown) =>
    createLambdaHandler("fetch", {
      env: {
        ...storageEnv(registry),
        AWS_LAMBDA_FUNCTION_NAME: "fetch",
        ...(sdkPackage === undefined ? {} : { SDK_PACKAGE: JSON.stringify(sdkPackage) }),
      },
    }) as unknown as Handler;

  it("serves the stored tarball after checking it against SDK_PACKAGE's sha256", async () => {
    // The local registry stores it under sdk/ when it first serves it, as the stack's deployment does.
    expect((await fetch(`${registry.url}/sdk`)).status).toBe(200);
    const result = await handler(deployed())(apiGatewayEvent({ method: "GET", url: `/sdk/${packed.file}` }));
    expect(result.statusCode).toBe(200);
    expect(sha512(Buffer.from(result.body, result.isBase64Encoded ? "base64" : "utf8"))).toBe(packed.integrity);
    const index = await handler(deployed())(apiGatewayEvent({ method: "GET", url: "/sdk" }));
    expect(JSON.parse(index.body)).toMatchObject({ file: packed.file, integrity: packed.integrity });
  });

  it("refuses stored bytes that do not match, rather than serving them", async () => {
    const result = await handler({ ...deployed(), sha256: "0".repeat(64) })(apiGatewayEvent({ method: "GET", url: `/sdk/${packed.file}` }));
    expect(result.statusCode).toBe(503);
    expect(JSON.parse(result.body).detail).toContain("damaged in this registry's storage");
  });

  it("without SDK_PACKAGE serves none, says so, and its tool pages give the curl snippet only", async () => {
    const bare = handler();
    const result = await bare(apiGatewayEvent({ method: "GET", url: "/sdk" }));
    expect(result.statusCode).toBe(404);
    expect(JSON.parse(result.body)).toMatchObject({ error: "No SDK package", detail: expect.stringContaining("cd sdk && npm pack") });
    const page = await bare(apiGatewayEvent({ method: "GET", url: "/t/text-stats" }));
    expect(page.body).toContain('id="snippet-curl"');
    expect(page.body).not.toContain('id="snippet-sdk"');
    expect(page.body).toContain("This registry serves no SDK package");
  });

  it("refuses a malformed SDK_PACKAGE at start, naming every problem", () => {
    expect(() => loadConfig({ SDK_PACKAGE: "{" })).toThrow(/SDK_PACKAGE must be JSON/);
    expect(() => loadConfig({ SDK_PACKAGE: JSON.stringify({ ...deployed(), file: "../x", integrity: "md5-x", size: 0 }) })).toThrow(
      "SDK_PACKAGE: integrity is not sha512-<base64>; size is not a positive integer; file is not a .tgz file name",
    );
  });
});
