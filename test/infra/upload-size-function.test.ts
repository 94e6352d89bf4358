/**
 * The CloudFront Function on `POST /tools/upload`, run as CloudFront runs it (a `handler(event)`
 * script): bodies over the direct-upload cap get the registry's JSON 413 at the edge, the rest pass.
 */
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { DIRECT_UPLOAD_MAX_BODY_BYTES, LARGE_UPLOAD_HINT } from "../../functions/http/direct-upload-limit.js";
import { UPLOAD_SIZE_FUNCTION_CODE } from "../../infra/upload-size-function.js";

type Answer = {
  statusCode?: number;
  headers: Record<string, { value: string }>;
  body?: { encoding: string; data: string };
  method?: string;
};
const handler = runInNewContext(`${UPLOAD_SIZE_FUNCTION_CODE}; handler`) as (event: unknown) => Answer;

const viewerRequest = (method: string, contentLength?: number) => ({
  version: "1.0",
  context: { eventType: "viewer-request" },
  viewer: { ip: "198.51.100.7" },
  request: {
    method,
    uri: "/tools/upload",
    querystring: {},
    cookies: {},
    headers: contentLength === undefined ? {} : { "content-length": { value: String(contentLength) } },
  },
});

describe("upload size function", () => {
  it("passes the largest direct upload through to the API", () => {
    const request = viewerRequest("POST", DIRECT_UPLOAD_MAX_BODY_BYTES);
    expect(handler(request)).toBe(request.request);
  });

  it("answers one byte more with the registry's JSON 413 and the large-upload hint", () => {
    const answer = handler(viewerRequest("POST", DIRECT_UPLOAD_MAX_BODY_BYTES + 1));
    expect(answer.statusCode).toBe(413);
    expect(answer.headers["content-type"]).toEqual({ value: "application/json" });
    const body = JSON.parse(answer.body!.data) as { error: string; detail: string };
    expect(body.error).toBe("Bundle too large");
    expect(body.detail).toContain(LARGE_UPLOAD_HINT);
  });

  it("leaves requests without a length, and other methods, to the API", () => {
    const chunked = viewerRequest("POST");
    expect(handler(chunked)).toBe(chunked.request);
    const options = viewerRequest("OPTIONS", DIRECT_UPLOAD_MAX_BODY_BYTES * 2);
    expect(handler(options)).toBe(options.request);
  });
});
