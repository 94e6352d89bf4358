/**
 * Large uploads on the local server: `POST /tools/uploads` → presigned PUT to the loopback S3
 * emulator → `POST /tools/uploads/{id}/complete`, which must behave exactly like `/tools/upload`.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { uploadKey } from "../../functions/storage/upload-keys.js";
import { buildBundle, fixtureBundle, zipFiles } from "../support/bundles.js";
import { startTestRegistry, uploadBundle, type TestRegistry } from "../support/registry.js";

const MAX_BYTES = 256 * 1024;
let registry: TestRegistry;

beforeAll(async () => {
  registry = await startTestRegistry({ maxBundleBytes: MAX_BYTES });
});
afterAll(() => registry?.close());

interface Ticket {
  uploadId: string;
  uploadUrl: string;
  expiresAt: string;
  maxBytes: number;
  completeUrl: string;
}

/** `token: null` sends no Authorization header. */
async function post(path: string, body?: unknown, token: string | null = registry.token) {
  const response = await fetch(`${registry.url}${path}`, {
    method: "POST",
    headers: {
      ...(token === null ? {} : { authorization: `Bearer ${token}` }),
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function startUpload(size?: number): Promise<Ticket> {
  const { status, body } = await post("/tools/uploads", size === undefined ? undefined : { size });
  expect(status, JSON.stringify(body)).toBe(201);
  return body as unknown as Ticket;
}

const putBundle = (ticket: Ticket, bytes: Uint8Array) => fetch(ticket.uploadUrl, { method: "PUT", body: bytes });

async function complete(ticket: Ticket) {
  const response = await fetch(ticket.completeUrl, { method: "POST", headers: { authorization: `Bearer ${registry.token}` } });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe("POST /tools/uploads", () => {
  it("hands out a presigned PUT to the loopback emulator, with the limit and the completion URL", async () => {
    const ticket = await startUpload(1234);
    expect(ticket.uploadId).toMatch(/^[0-9a-f-]{36}$/);
    const uploadUrl = new URL(ticket.uploadUrl);
    expect(uploadUrl.origin).toBe(registry.local.config.s3Endpoint);
    expect(uploadUrl.pathname).toBe(`/${registry.local.config.bucketName}/${uploadKey(ticket.uploadId)}`);
    expect(uploadUrl.searchParams.get("X-Amz-SignedHeaders")).toContain("content-length");
    expect(ticket.maxBytes).toBe(MAX_BYTES);
    expect(ticket.completeUrl).toBe(`${registry.url}/tools/uploads/${ticket.uploadId}/complete`);
    expect(Date.parse(ticket.expiresAt)).toBeGreaterThan(Date.now());
  });

  it("needs the write token", async () => {
    const { status, body } = await post("/tools/uploads", { size: 10 }, null);
    expect(status).toBe(401);
    expect(body.error).toBe("Unauthorized");
    expect((await post("/tools/uploads", { size: 10 }, "wrong")).status).toBe(401);
  });

  it("refuses a declared size over the limit with 413 before any byte is sent", async () => {
    const { status, body } = await post("/tools/uploads", { size: MAX_BYTES + 1 });
    expect(status).toBe(413);
    expect(body).toMatchObject({ error: "Bundle too large" });
    expect(String(body.detail)).toContain(String(MAX_BYTES));
  });

  it("refuses a body that is not {size: positive integer}", async () => {
    for (const bad of [{ size: -1 }, { size: 1.5 }, { size: "10" }, [1], "not json"]) {
      const { status, body } = await post("/tools/uploads", bad);
      expect(status, JSON.stringify(bad)).toBe(400);
      expect(body.detail).toBeTruthy();
    }
  });
});

describe("POST /tools/uploads/{uploadId}/complete", () => {
  it("publishes the bundle exactly like /tools/upload and removes the incoming object", async () => {
    const { bundle, toolZip } = await fixtureBundle("text-stats", { version: "2.0.0" });
    const ticket = await startUpload(bundle.byteLength);
    expect((await putBundle(ticket, bundle)).status).toBe(200);
    const done = await complete(ticket);
    expect(done).toEqual({ status: 200, body: { message: "Tool uploaded successfully", tool_id: "text-stats", version: "2.0.0" } });

    const entry = (await (await fetch(`${registry.url}/tools/text-stats/versions/2.0.0`)).json()) as Record<string, unknown>;
    const archive = new Uint8Array(await (await fetch(`${registry.url}/tools/text-stats/versions/2.0.0/archive`)).arrayBuffer());
    expect(entry.tool_archive_size).toBe(toolZip.byteLength);
    expect(Buffer.from(archive).equals(Buffer.from(toolZip))).toBe(true);

    // The incoming copy is gone: completing again is an unknown upload.
    const again = await complete(ticket);
    expect(again.status).toBe(404);
    expect(again.body.error).toBe("Upload not found");
  });

  it("also works without a declared size", async () => {
    const { bundle } = await fixtureBundle("text-stats", { version: "2.1.0" });
    const ticket = await startUpload();
    expect(new URL(ticket.uploadUrl).searchParams.get("X-Amz-SignedHeaders")).not.toContain("content-length");
    expect((await putBundle(ticket, bundle)).status).toBe(200);
    expect((await complete(ticket)).status).toBe(200);
  });

  it("gives the same errors as /tools/upload for an invalid bundle and a duplicate version", async () => {
    const cases: Uint8Array[] = [
      zipFiles({ "spec.json": "{}", "readme.txt": "no tool here" }),
      buildBundle({ spec: "not json", toolZip: zipFiles({ "code/function.py": "" }), toolMd: "# x" }),
      (await fixtureBundle("text-stats", { version: "2.0.0" })).bundle, // published above: 409
    ];
    for (const bytes of cases) {
      const direct = await uploadBundle(registry.url, registry.token, bytes);
      expect(direct.status).toBeGreaterThanOrEqual(400);
      expect(direct.status).toBeLessThan(500);
      const ticket = await startUpload(bytes.byteLength);
      expect((await putBundle(ticket, bytes)).status).toBe(200);
      expect(await complete(ticket)).toEqual(direct);
      expect((await complete(ticket)).status).toBe(404); // removed whatever the outcome
    }
  });

  it("answers 404 with a detail for unknown, never-uploaded and malformed upload ids", async () => {
    const never = await startUpload(100);
    for (const url of [
      never.completeUrl,
      `${registry.url}/tools/uploads/${randomUUID()}/complete`,
      `${registry.url}/tools/uploads/..%2Fx/complete`,
    ]) {
      const response = await fetch(url, { method: "POST", headers: { authorization: `Bearer ${registry.token}` } });
      const body = (await response.json()) as Record<string, unknown>;
      expect(response.status, url).toBe(404);
      expect(body.error).toBe("Upload not found");
      expect(String(body.detail)).toContain("POST /tools/uploads");
    }
  });

  it("needs the write token", async () => {
    const ticket = await startUpload(10);
    const response = await fetch(ticket.completeUrl, { method: "POST" });
    expect(response.status).toBe(401);
  });

  it("refuses an object over the limit with 413 and removes it", async () => {
    const ticket = await startUpload(); // no declared size, so storage cannot refuse it
    expect((await putBundle(ticket, new Uint8Array(MAX_BYTES + 10))).status).toBe(200);
    const done = await complete(ticket);
    expect(done.status).toBe(413);
    expect(done.body.error).toBe("Bundle too large");
    expect((await complete(ticket)).status).toBe(404);
  });
});
