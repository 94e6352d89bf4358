/**
 * Walking a paged listing as a client does, for the listing tests: follow `Link: rel="next"` to
 * the end, checking every page's bounds (count and Lambda body bytes) on the way; a page through
 * the fetch Lambda; and the ways a client could forge a cursor, each of which the registry must
 * answer with a 400.
 */
import { expect } from "vitest";
import { createLambdaHandler } from "../../../functions/lambda/create-lambda-handler.js";
import { lambdaBodyBytes, MAX_PAGE_BYTES, MAX_PAGE_ITEMS } from "../../../functions/listing/bounded-page.js";
import { MAX_CURSOR_CHARS } from "../../../functions/listing/page-cursor.js";
import { apiGatewayEvent, type ApiGatewayResult } from "../../support/api-gateway-event.js";
import { storageEnv, type TestRegistry } from "../../support/registry.js";

/** Lambda's limit on a response, the envelope included. */
const LAMBDA_RESPONSE_LIMIT = 6 * 1024 * 1024;

/** `GET path` through the fetch Lambda's handler on `registry`'s storage answers a page and a next one, within Lambda's response limit. */
export async function expectLambdaPageWithinLimit(registry: TestRegistry, path: string): Promise<void> {
  const handler = createLambdaHandler("fetch", { env: storageEnv(registry) }) as unknown as (
    event: unknown,
    context: unknown,
  ) => Promise<ApiGatewayResult>;
  const result = await handler(apiGatewayEvent({ method: "GET", url: path }), {});
  expect(result.statusCode).toBe(200);
  expect(Buffer.byteLength(JSON.stringify(result))).toBeLessThan(LAMBDA_RESPONSE_LIMIT);
  expect(result.headers?.link ?? result.headers?.Link).toMatch(/rel="next"/);
}

/** The cursor of the page after the one `url` answers. */
export async function nextCursor(url: string): Promise<string> {
  const next = nextLink(await fetch(url));
  expect(next).toBeDefined();
  return new URL(next!).searchParams.get("cursor")!;
}

/** The URL of `Link: <…>; rel="next"`, if any. */
export const nextLink = (response: Response): string | undefined => /<([^>]+)>;\s*rel="next"/.exec(response.headers.get("link") ?? "")?.[1];

/** Every item from `url` on, in order, and how many each page held. */
export async function walkPages<T>(url: string, limit = MAX_PAGE_ITEMS): Promise<{ items: T[]; pages: number[] }> {
  const items: T[] = [];
  const pages: number[] = [];
  for (let next: string | undefined = url; next !== undefined; ) {
    const response = await fetch(next);
    expect(response.status, next).toBe(200);
    const text = await response.text();
    expect(lambdaBodyBytes(text)).toBeLessThanOrEqual(MAX_PAGE_BYTES);
    const page = JSON.parse(text) as T[];
    expect(Array.isArray(page)).toBe(true);
    expect(page.length).toBeLessThanOrEqual(limit);
    items.push(...page);
    pages.push(page.length);
    next = nextLink(response);
  }
  return { items, pages };
}

/** Cursors a client might send instead of the one it was given. */
export const FORGED_CURSORS: [name: string, forge: (cursor: string) => string][] = [
  ["an altered one", (cursor) => `${cursor.slice(0, 5)}${cursor[5] === "A" ? "B" : "A"}${cursor.slice(6)}`],
  ["a truncated one", (cursor) => cursor.slice(0, -3)],
  ["one with its MAC removed", (cursor) => cursor.split(".")[0]!],
  ["an oversized one", (cursor) => cursor.repeat(Math.ceil((MAX_CURSOR_CHARS + 1) / cursor.length))],
  ["garbage", () => "%%%not-a-cursor"],
];
