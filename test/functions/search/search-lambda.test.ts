// The search Lambda against the emulators: its index stays warm between invocations and follows
// writes made by other processes through the catalog revision.
import { afterAll, beforeAll, expect, it } from "vitest";
import { createLambdaHandler } from "../../../functions/lambda/create-lambda-handler.js";
import { startTestRegistry, storageEnv, type TestRegistry } from "../../support/registry.js";
import { apiGatewayEvent, resultBytes, type ApiGatewayResult } from "../../support/api-gateway-event.js";
import { echoToolBundle, uploadOrThrow } from "./search-bundles.js";
import { seedCatalog } from "./seed-catalog.js";

type Handler = (event: unknown, context?: unknown) => Promise<ApiGatewayResult>;

let registry: TestRegistry;
let search: Handler;

const searchIds = async (q: string) => {
  const result = await search(apiGatewayEvent({ method: "GET", url: `/tools/search?q=${encodeURIComponent(q)}` }), {});
  expect(result.statusCode).toBe(200);
  return (JSON.parse(resultBytes(result).toString("utf8")) as { results: { tool_id: string }[] }).results.map((hit) => hit.tool_id);
};

beforeAll(async () => {
  registry = await startTestRegistry();
  search = createLambdaHandler("search", { env: storageEnv(registry) }) as unknown as Handler;
});

afterAll(async () => {
  await registry?.close();
});

it("sees an upload made through another process on its next invocation", async () => {
  expect(await searchIds("barcode")).toEqual([]);
  await uploadOrThrow(
    registry.url,
    registry.token,
    echoToolBundle({ tool_id: "barcode-reader", tool_search_description: "Decodes barcodes in pictures", tool_tags: ["barcode"] }),
  );
  expect(await searchIds("barcode")).toEqual(["barcode-reader"]);
});

it("keeps its index while the revision stands still, and refreshes when it moves", async () => {
  const { entries } = registry.local.deps;
  const latest = (await entries.reads.getLatest("barcode-reader"))!;
  // A write that does not bump the revision is invisible to a warm index: it is not rebuilt per request.
  await entries.versions.replaceVersion({ ...latest, tool_search_description: "Decodes QR codes", updated_at: new Date().toISOString() });
  expect(await searchIds("qr")).toEqual([]);
  expect(await searchIds("barcode")).toEqual(["barcode-reader"]);

  await entries.revision.bumpRevision();
  expect(await searchIds("qr")).toEqual(["barcode-reader"]);
});

it("drops deleted tools and takes bulk additions", async () => {
  const deleted = await fetch(`${registry.url}/tools/barcode-reader`, {
    method: "DELETE",
    headers: { authorization: `Bearer ${registry.token}` },
  });
  expect(deleted.status).toBe(200);
  expect(await searchIds("qr")).toEqual([]);

  await seedCatalog(registry.local, [
    { tool_id: "pdf-merger", tool_search_description: "Combines PDF files" },
    { tool_id: "pdf-splitter", tool_search_description: "Splits PDF files" },
  ]);
  expect((await searchIds("pdf")).sort()).toEqual(["pdf-merger", "pdf-splitter"]);
});
