// Large uploads belong to the publisher whose token started them (docs/registry.md#large-uploads):
// another publisher's completion, or the admin's, is a 403 that leaves the waiting bundle exactly as
// it was (and is audited), so its owner can still complete it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixtureBundle } from "../../support/bundles.js";
import { startTestRegistry, type TestRegistry } from "../../support/registry.js";
import { storageSnapshot } from "../storage/storage-snapshot.js";

let registry: TestRegistry;
const tokens: Record<"acme" | "globex", string> = { acme: "", globex: "" };

async function post(path: string, token: string, body?: unknown) {
  const response = await fetch(`${registry.url}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** A started upload whose bundle has arrived: its id and completion path. */
async function waitingUpload(token: string, toolId: string): Promise<{ uploadId: string; complete: string }> {
  const { bundle } = await fixtureBundle("text-stats", { spec: { tool_id: toolId } });
  const started = await post("/tools/uploads", token, { size: bundle.byteLength });
  expect(started.status, JSON.stringify(started.body)).toBe(201);
  expect((await fetch(String(started.body.uploadUrl), { method: "PUT", body: bundle })).status).toBe(200);
  return { uploadId: String(started.body.uploadId), complete: new URL(String(started.body.completeUrl)).pathname };
}

beforeAll(async () => {
  registry = await startTestRegistry();
  for (const name of ["acme", "globex"] as const) {
    const minted = await post("/tokens", registry.token, { name, scope: [`${name}-*`], actions: ["publish"] });
    expect(minted.status).toBe(201);
    tokens[name] = String(minted.body.token);
  }
});
afterAll(async () => {
  await registry?.close();
});

describe("completing a large upload", () => {
  it("is refused with 403 for anyone but the publisher that started it, who then completes it", async () => {
    const upload = await waitingUpload(tokens.acme, "acme-large");
    const before = await storageSnapshot(registry.local);
    for (const [who, token] of [
      ["another publisher", tokens.globex],
      ["the admin", registry.token],
    ] as const) {
      const refused = await post(upload.complete, token);
      expect(refused.status, who).toBe(403);
      expect(refused.body).toMatchObject({ error: "Forbidden", detail: expect.stringContaining("another publisher's token") });
      // Untouched: the bundle and its owner record are still waiting.
      expect(await storageSnapshot(registry.local), who).toEqual(before);
    }
    const done = await post(upload.complete, tokens.acme);
    expect(done).toEqual({ status: 200, body: { message: "Tool uploaded successfully", tool_id: "acme-large", version: "1.0.0" } });
    // Completed once: the bytes and the owner record are gone.
    expect((await post(upload.complete, tokens.acme)).status).toBe(404);
    const left = (await storageSnapshot(registry.local)).objects.filter((key) => key.includes(upload.uploadId));
    expect(left).toEqual([]);
  });

  it("records the refused completion in the audit log as the publish attempt it was", async () => {
    const upload = await waitingUpload(tokens.acme, "acme-audited");
    expect((await post(upload.complete, tokens.globex)).status).toBe(403);
    const { events } = (await (
      await fetch(`${registry.url}/audit?limit=5`, { headers: { authorization: `Bearer ${registry.token}` } })
    ).json()) as {
      events: { token: string; action: string; outcome: string; status: number }[];
    };
    expect(events[0]).toMatchObject({ token: "globex", action: "publish", outcome: "refused", status: 403 });
    expect((await post(upload.complete, tokens.acme)).status).toBe(200);
  });

  it("answers 404, not 403, for an upload id nobody started", async () => {
    const answer = await post("/tools/uploads/00000000-0000-4000-8000-000000000000/complete", tokens.globex);
    expect(answer.status).toBe(404);
    expect(answer.body.error).toBe("Upload not found");
  });
});
