import { HttpProblem } from "../http-problem.js";

/**
 * How large a direct upload (`POST /tools/upload`) may be, so the local server and AWS refuse the
 * same bodies with the same JSON 413. On AWS the body reaches Lambda inside the event, base64
 * encoded (HTTP APIs encode multipart bodies), and the event must fit Lambda's synchronous
 * invocation limit; anything larger is refused by API Gateway before our code runs.
 */
export const LAMBDA_EVENT_MAX_BYTES = 6 * 1024 * 1024;

/**
 * Room for the rest of the event: HTTP APIs accept 10 KiB of request line and headers, JSON
 * escaping can double that, and `requestContext` adds about 1 KiB. Measured with the largest
 * headers API Gateway accepts in test/infra/direct-upload-limit.test.ts.
 */
export const EVENT_ENVELOPE_BYTES = 32 * 1024;

/** The largest request body whose base64 (4 bytes per 3) fits beside the envelope: 4,694,016 bytes. */
export const DIRECT_UPLOAD_MAX_BODY_BYTES = Math.floor((LAMBDA_EVENT_MAX_BYTES - EVENT_ENVELOPE_BYTES) / 4) * 3;

/** Where a bundle too large for one request goes instead. The SDK and CLI repeat this hint for the gateway's own 413. */
export const LARGE_UPLOAD_HINT =
  "Use the large-upload flow: POST /tools/uploads, PUT the bundle to the returned uploadUrl, then POST its completeUrl " +
  "(`agent-tools publish` and the SDK's uploadBundle switch to it on their own for larger bundles).";

/** The `detail` of the 413 for a direct upload over the cap, from the functions and from the edge alike. */
export const DIRECT_UPLOAD_REFUSAL =
  `The upload is over ${DIRECT_UPLOAD_MAX_BODY_BYTES} bytes, the most ` +
  `one request can carry to the registry's functions. ${LARGE_UPLOAD_HINT}`;

/** The 413 for a direct upload over the cap (`maxBundleBytes` may be lower: it then speaks for itself). */
export function directUploadTooLarge(size: number): HttpProblem {
  return new HttpProblem(413, "Bundle too large", `${DIRECT_UPLOAD_REFUSAL} (sent: ${size} bytes)`);
}
