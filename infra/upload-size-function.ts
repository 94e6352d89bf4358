import { DIRECT_UPLOAD_MAX_BODY_BYTES, DIRECT_UPLOAD_REFUSAL } from "../functions/http/direct-upload-limit.js";

/**
 * CloudFront Function (viewer request, `cloudfront-js-2.0`) on `POST /tools/upload`: a body over
 * the direct-upload cap gets the registry's own JSON 413 and hint at the edge. Without it, API
 * Gateway refuses the too-large Lambda event itself with `{"message":"Request Entity Too Large"}`.
 * Plain ES5-style JavaScript, as CloudFront Functions run it; test/infra/upload-size-function.test.ts runs it.
 */
export const UPLOAD_SIZE_FUNCTION_CODE = `
var MAX_BODY_BYTES = ${DIRECT_UPLOAD_MAX_BODY_BYTES};
var REFUSAL = ${JSON.stringify(JSON.stringify({ error: "Bundle too large", detail: DIRECT_UPLOAD_REFUSAL }))};
function handler(event) {
  var request = event.request;
  var length = request.headers["content-length"];
  if (request.method === "POST" && length && Number(length.value) > MAX_BODY_BYTES) {
    return {
      statusCode: 413,
      statusDescription: "Payload Too Large",
      headers: { "content-type": { value: "application/json" }, "cache-control": { value: "no-store" } },
      body: { encoding: "text", data: REFUSAL },
    };
  }
  return request;
}
`;
