import { SecretsManagerClient } from "@aws-sdk/client-secrets-manager";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { secretsManagerTokenVerifier } from "../../functions/auth/secrets-manager-token.js";
import { startFakeSecretsManager, type FakeSecretsManager } from "./fake-secrets-manager.js";

const ARN = "arn:aws:secretsmanager:eu-west-1:123456789012:secret:WriteToken-abc";
let sm: FakeSecretsManager;
let client: SecretsManagerClient;

beforeAll(async () => {
  sm = await startFakeSecretsManager();
  client = new SecretsManagerClient({
    region: "eu-west-1",
    endpoint: sm.endpoint,
    credentials: { accessKeyId: "test", secretAccessKey: "test" },
    maxAttempts: 1,
  });
});
afterAll(async () => {
  client.destroy();
  await sm.close();
});
beforeEach(() => {
  sm.secrets.set(ARN, "s3cret-token");
  sm.reads = 0;
  sm.fail = false;
});

describe("secretsManagerTokenVerifier", () => {
  it("accepts exactly the stored token and reads the secret once per container", async () => {
    const verify = secretsManagerTokenVerifier({ secretArn: ARN, client });
    expect(await verify("s3cret-token")).toBe(true);
    expect(await verify("s3cret-tokeN")).toBe(false);
    expect(await verify("")).toBe(false);
    expect(await verify("s3cret-token ")).toBe(false);
    expect(sm.reads).toBe(1);
  });

  it("shares one read between concurrent first requests", async () => {
    const verify = secretsManagerTokenVerifier({ secretArn: ARN, client });
    expect(await Promise.all([verify("s3cret-token"), verify("x"), verify("s3cret-token")])).toEqual([true, false, true]);
    expect(sm.reads).toBe(1);
  });

  it("accepts any of several whitespace-separated tokens (rotation)", async () => {
    sm.secrets.set(ARN, "old-token\nnew-token");
    const verify = secretsManagerTokenVerifier({ secretArn: ARN, client });
    expect(await verify("old-token")).toBe(true);
    expect(await verify("new-token")).toBe(true);
    expect(await verify("old-token\nnew-token")).toBe(false);
  });

  it("reads the secret again after the TTL, so a rotated token takes effect", async () => {
    let now = 0;
    const verify = secretsManagerTokenVerifier({ secretArn: ARN, client, ttlMs: 1000, now: () => now });
    expect(await verify("s3cret-token")).toBe(true);
    sm.secrets.set(ARN, "rotated");
    now = 999;
    expect(await verify("rotated")).toBe(false);
    now = 1000;
    expect(await verify("rotated")).toBe(true);
    expect(await verify("s3cret-token")).toBe(false);
    expect(sm.reads).toBe(2);
  });

  it("keeps the last tokens when a refresh fails, and fails when the secret was never read", async () => {
    let now = 0;
    const verify = secretsManagerTokenVerifier({ secretArn: ARN, client, ttlMs: 10, now: () => now });
    expect(await verify("s3cret-token")).toBe(true);
    sm.fail = true;
    now = 100;
    expect(await verify("s3cret-token")).toBe(true);

    const cold = secretsManagerTokenVerifier({ secretArn: ARN, client });
    await expect(cold("s3cret-token")).rejects.toThrow(/fake outage/);
  });

  it("refuses an empty secret", async () => {
    sm.secrets.set(ARN, "  \n ");
    const verify = secretsManagerTokenVerifier({ secretArn: ARN, client });
    await expect(verify("")).rejects.toThrow(/has no SecretString token/);
  });
});
