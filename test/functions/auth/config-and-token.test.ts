// Configuration from the environment, and the embedded default's write token.
import { createHash } from "node:crypto";
import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { envTokenVerifier } from "../../../functions/auth/env-token.js";
import { loadLocalToken } from "../../../functions/auth/local-token.js";
import { hashVerifier } from "../../../functions/auth/token-verifier.js";
import { loadConfig } from "../../../functions/config.js";

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

describe("loadConfig", () => {
  it("defaults to proxy delivery locally and redirect on Lambda", () => {
    expect(loadConfig({}).archiveDelivery).toBe("proxy");
    expect(loadConfig({ AWS_LAMBDA_FUNCTION_NAME: "fetch" }).archiveDelivery).toBe("redirect");
    expect(loadConfig({ AWS_LAMBDA_FUNCTION_NAME: "fetch", ARCHIVE_DELIVERY: "proxy" }).archiveDelivery).toBe("proxy");
  });

  it("reads names, endpoints and limits, and uses static credentials only with an emulator endpoint", () => {
    const config = loadConfig({
      TABLE_NAME: "t1",
      BUCKET_NAME: "b1",
      AWS_REGION: "eu-west-1",
      S3_ENDPOINT: "http://127.0.0.1:1",
      AWS_ACCESS_KEY_ID: "k",
      AWS_SECRET_ACCESS_KEY: "s",
      PUBLIC_URL: "https://tools.example.org/",
      MAX_BUNDLE_BYTES: "2048",
    });
    expect(config).toMatchObject({
      tableName: "t1",
      bucketName: "b1",
      region: "eu-west-1",
      s3Endpoint: "http://127.0.0.1:1",
      credentials: { accessKeyId: "k", secretAccessKey: "s" },
      publicUrl: "https://tools.example.org",
      maxBundleBytes: 2048,
    });
    // On AWS the SDK's own credential chain (role, session token) must apply.
    expect(loadConfig({ AWS_ACCESS_KEY_ID: "k", AWS_SECRET_ACCESS_KEY: "s" }).credentials).toBeUndefined();
  });

  it("refuses invalid values with the variable's name", () => {
    expect(() => loadConfig({ ARCHIVE_DELIVERY: "ftp" })).toThrow(/ARCHIVE_DELIVERY/);
    expect(() => loadConfig({ MAX_BUNDLE_BYTES: "-1" })).toThrow(/MAX_BUNDLE_BYTES/);
    expect(() => loadConfig({ CACHE_REVALIDATE_MS: "soon" })).toThrow(/CACHE_REVALIDATE_MS/);
    expect(loadConfig({ CACHE_REVALIDATE_MS: "0" }).cacheRevalidateMs).toBe(0);
  });
});

describe("write tokens", () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), "agent-tools-token-"));
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it("generates a token on first start and stores only its sha256, readable by the owner only", async () => {
    const first = await loadLocalToken(dataDir);
    expect(first.source).toBe("generated");
    await expect(stat(first.hashFile)).rejects.toMatchObject({ code: "ENOENT" }); // stored only once the server listens
    await first.persist();
    const stored = (await readFile(first.hashFile, "utf8")).trim();
    expect(stored).toBe(sha256(first.token!));
    expect(stored).not.toContain(first.token!);
    expect((await stat(first.hashFile)).mode & 0o777).toBe(0o600);
    expect(await first.verify(first.token!)).toBe(true);

    const second = await loadLocalToken(dataDir);
    expect(second.source).toBe("stored");
    expect(second.token).toBeUndefined();
    expect(await second.verify(first.token!)).toBe(true);
    expect(await second.verify(`${first.token!}x`)).toBe(false);
  });

  it("uses a given token (REGISTRY_TOKEN) instead of the stored one", async () => {
    const given = await loadLocalToken(dataDir, "my-own-token");
    expect(given.source).toBe("given");
    expect(await given.verify("my-own-token")).toBe(true);
  });

  it("verifies REGISTRY_TOKEN_SHA256 and refuses a missing or malformed hash", async () => {
    const verify = envTokenVerifier({ REGISTRY_TOKEN_SHA256: sha256("deploy-token") });
    expect(await verify("deploy-token")).toBe(true);
    expect(await verify("")).toBe(false);
    expect(() => envTokenVerifier({})).toThrow(/REGISTRY_TOKEN_SHA256/);
    expect(() => hashVerifier("not-hex")).toThrow(/64 hex/);
  });
});
