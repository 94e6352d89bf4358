// The storage calls an upload makes (docs/durability.md, "Cost"), counted as the HTTP requests the
// registry's AWS SDK clients send to the emulators: the convergent design must not add round trips.
import { subscribe, unsubscribe } from "node:diagnostics_channel";
import type { ClientRequest } from "node:http";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildBundle, FIXTURE_TOOLS_DIR, readFixtureSpec, zipFiles } from "../../support/bundles.js";
import { startTestRegistry, uploadBundle, type TestRegistry } from "../../support/registry.js";

let registry: TestRegistry;

beforeAll(async () => {
  // No search index rebuild while calls are counted (it runs this long after the last write).
  registry = await startTestRegistry({ searchIndexDelayMs: 600_000 });
  // The first write of a process learns the catalog revision; later ones bump it in one call.
  expect((await uploadBundle(registry.url, registry.token, bundle("warm-up", "1.0.0"))).status).toBe(200);
  // The indexer's first run starts with the server: its calls are not the upload's.
  await registry.local.searchIndexIdle();
});

afterAll(async () => {
  await registry?.close();
});

/** A bundle with code bytes of its own, so each upload stores a new archive. */
function bundle(toolId: string, version: string): Uint8Array {
  const spec = readFixtureSpec("text-stats");
  const toolZip = zipFiles({
    "code/function.py": readFileSync(join(FIXTURE_TOOLS_DIR, "text-stats/code/function.py")),
    "code/release.txt": `${toolId} ${version}`,
  });
  return buildBundle({
    spec: { ...spec, tool_id: toolId, tool_metadata: { ...(spec.tool_metadata as object), version } },
    toolZip,
    toolMd: "# round trips\n",
  });
}

/** The storage calls `operation` makes, in order: `DynamoDB <Action>` or `S3 <METHOD> <key>`. */
async function storageCalls(operation: () => Promise<unknown>): Promise<string[]> {
  const bucketPath = `/${registry.local.config.bucketName}/`;
  const calls: string[] = [];
  const listener = (message: unknown) => {
    const { request } = message as { request: ClientRequest };
    const target = request.getHeader("x-amz-target");
    if (typeof target === "string") calls.push(`DynamoDB ${target.split(".")[1]}`);
    else if (request.path.startsWith(bucketPath)) calls.push(`S3 ${request.method} ${request.path.split("?")[0]}`);
  };
  subscribe("http.client.request.start", listener);
  try {
    await operation();
  } finally {
    unsubscribe("http.client.request.start", listener);
  }
  return calls;
}

describe("an upload's storage calls", () => {
  it("a new tool by the admin: eight writes, no read (audit, claim, archive, version, pointer, revision, published, audit)", async () => {
    const calls = await storageCalls(async () => {
      expect((await uploadBundle(registry.url, registry.token, bundle("counted", "1.0.0"))).status).toBe(200);
    });
    expect(calls.map((call) => call.replace(/\/archives\/[0-9a-f]{64}$/, "/archives/<sha256>"))).toEqual([
      "DynamoDB PutItem", // audit event, before anything else
      "DynamoDB PutItem", // the id claimed for its first publisher
      "S3 PUT /agent-tools-archives/archives/<sha256>", // written once: If-None-Match, no HEAD first
      "DynamoDB PutItem", // version item, pending
      "DynamoDB PutItem", // pointer moved forward
      "DynamoDB UpdateItem", // revision and its change-log slot
      "DynamoDB UpdateItem", // version marked published
      "DynamoDB UpdateItem", // audit event completed
    ]);
  });

  it("a new version of a tool this process knows: seven, the owner remembered", async () => {
    const calls = await storageCalls(async () => {
      expect((await uploadBundle(registry.url, registry.token, bundle("counted", "1.1.0"))).status).toBe(200);
    });
    expect(calls).toHaveLength(7);
    expect(calls.filter((call) => /GetItem|Query|HEAD|GET/.test(call))).toEqual([]);
  });
});
