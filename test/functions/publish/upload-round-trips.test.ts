// The storage calls an upload makes (docs/durability.md, "Cost"), counted as the HTTP requests the
// registry's AWS SDK clients send to the emulators, and the round trips they take: calls in flight
// at the same time are one round trip. The convergent design must not add calls nor round trips.
import { subscribe, unsubscribe } from "node:diagnostics_channel";
import type { ClientRequest } from "node:http";
import type { Socket } from "node:net";
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

/** A storage call: `DynamoDB <Action>` or `S3 <METHOD> <key>`. */
type Call = string;

/**
 * The storage calls `operation` makes, as round trips in order: a call started while the one
 * before it was still in flight shares its round trip; within one, calls are sorted.
 */
async function storageRoundTrips(operation: () => Promise<unknown>): Promise<Call[][]> {
  const bucketPath = `/${registry.local.config.bucketName}/`;
  const trips: Call[][] = [];
  const inFlight = new Set<ClientRequest>();
  const started = (message: unknown) => {
    const { request } = message as { request: ClientRequest };
    const target = request.getHeader("x-amz-target");
    const call =
      typeof target === "string"
        ? `DynamoDB ${target.split(".")[1]}`
        : request.path.startsWith(bucketPath)
          ? `S3 ${request.method} ${request.path.split("?")[0]!.replace(/\/archives\/[0-9a-f]{64}$/, "/archives/<sha256>")}`
          : undefined;
    if (call === undefined) return;
    if (inFlight.size === 0 || trips.length === 0) trips.push([]);
    trips.at(-1)!.push(call);
    inFlight.add(request);
  };
  const finished = (message: unknown) => inFlight.delete((message as { request: ClientRequest }).request);
  subscribe("http.client.request.start", started);
  subscribe("http.client.response.finish", finished);
  try {
    await operation();
  } finally {
    unsubscribe("http.client.request.start", started);
    unsubscribe("http.client.response.finish", finished);
  }
  return trips.map((trip) => trip.sort());
}

describe("an upload's storage calls", () => {
  it("a new tool by the admin: nine writes in six round trips, no read", async () => {
    const trips = await storageRoundTrips(async () => {
      expect((await uploadBundle(registry.url, registry.token, bundle("counted", "1.0.0"))).status).toBe(200);
    });
    expect(trips).toEqual([
      ["DynamoDB PutItem"], // audit event, before any other write (the bundle is validated meanwhile)
      // the id claimed for its first publisher and the audit event naming the tool (the incremental repair's
      // change record), beside the archive, written once (If-None-Match, no HEAD first)
      ["DynamoDB PutItem", "DynamoDB UpdateItem", "S3 PUT /agent-tools-archives/archives/<sha256>"],
      ["DynamoDB PutItem"], // version item, pending
      ["DynamoDB PutItem"], // pointer moved forward
      ["DynamoDB UpdateItem"], // revision and its change-log slot
      ["DynamoDB UpdateItem", "DynamoDB UpdateItem"], // version marked published, beside the audit event's outcome
    ]);
  });

  it("a new version of a tool this process knows: eight in six, the owner remembered", async () => {
    const trips = await storageRoundTrips(async () => {
      expect((await uploadBundle(registry.url, registry.token, bundle("counted", "1.1.0"))).status).toBe(200);
    });
    expect(trips.flat()).toHaveLength(8);
    expect(trips).toHaveLength(6);
    expect(trips.flat().filter((call) => /GetItem|Query|HEAD|GET/.test(call))).toEqual([]);
  });
});

describe("connections to storage", () => {
  it("are kept open between calls: ten uploads, some seventy calls, over a few sockets", async () => {
    const ports = new Set(
      [registry.local.config.dynamodbEndpoint, registry.local.config.s3Endpoint].map((endpoint) => Number(new URL(endpoint!).port)),
    );
    const sockets = new Set<Socket>();
    let calls = 0;
    const answered = (message: unknown) => {
      const { socket } = (message as { request: ClientRequest }).request;
      if (socket === null || !ports.has(socket.remotePort ?? -1)) return;
      sockets.add(socket);
      calls++;
    };
    subscribe("http.client.response.finish", answered);
    try {
      for (let i = 0; i < 10; i++)
        expect((await uploadBundle(registry.url, registry.token, bundle(`reused-${i}`, "1.0.0"))).status).toBe(200);
    } finally {
      unsubscribe("http.client.response.finish", answered);
    }
    expect(calls).toBeGreaterThanOrEqual(70);
    // At most three calls are in flight at once (the round trips above): a pool that keeps its sockets needs a few.
    expect(sockets.size).toBeLessThanOrEqual(4);
  });
});
