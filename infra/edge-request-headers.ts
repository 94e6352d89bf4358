import { VIEWER_ADDRESS_HEADER } from "../functions/http/client-address.js";
import { ORIGIN_VERIFY_HEADER } from "../functions/http/origin-secret.js";
import { SIGNATURE_HEADER } from "../functions/trust/verify-signature.js";

/** A request header, and why CloudFront must (or need not) pass it to the API. */
export interface EdgeHeader {
  readonly name: string;
  readonly reason: string;
}

/**
 * Headers in the cache key of every behaviour that reaches the API: CloudFront forwards a header on
 * GET and HEAD only when it keys its cache on it, and it refuses `Authorization` in an origin
 * request policy (docs/deployment.md#cloudfront-custom-domain-and-waf).
 */
export const CACHE_KEY_HEADERS: readonly EdgeHeader[] = [
  {
    name: "authorization",
    reason:
      "Writes and the admin reads (GET /tokens, GET /audit) need the bearer " +
      "token; keyed on it, one token's answer is never served to another.",
  },
  {
    name: "origin",
    reason: "With allowedOrigins, API Gateway's CORS answer names the requesting origin; one origin's must not be served to another.",
  },
];

/**
 * Viewer headers CloudFront passes to the API without keying its cache on them (an allow list: every
 * viewer header but `Host` cannot be combined with CloudFront's own headers, and `Host` must name the
 * execute-api domain). test/infra/edge-request-headers.test.ts checks that every header the functions
 * read is here, in `CACHE_KEY_HEADERS`, or in `NOT_FORWARDED_HEADERS`.
 */
export const ORIGIN_REQUEST_HEADERS: readonly EdgeHeader[] = [
  { name: "content-type", reason: "Uploads are multipart (the boundary is in it), other writes JSON." },
  { name: SIGNATURE_HEADER, reason: "A signed upload or edit carries its publisher signature in it (docs/registry.md#signed-bundles)." },
  {
    name: VIEWER_ADDRESS_HEADER,
    reason: "Set by CloudFront to the viewer's own address and port: the client the audit log records (functions/http/client-address.ts).",
  },
  { name: "access-control-request-method", reason: "CORS preflights, answered by API Gateway." },
  { name: "access-control-request-headers", reason: "CORS preflights, answered by API Gateway." },
];

/** Headers the functions read that never need to come through CloudFront, each with the reason. */
export const NOT_FORWARDED_HEADERS: readonly EdgeHeader[] = [
  { name: ORIGIN_VERIFY_HEADER, reason: "CloudFront adds it to every origin request itself, as the API origin's custom header." },
  {
    name: "if-none-match",
    reason: "CloudFront answers a viewer's conditional GET from its copy and revalidates that copy with the copy's own ETag.",
  },
  { name: "content-length", reason: "CloudFront sends the length of the body it forwards itself." },
  {
    name: "x-forwarded-host",
    reason: "Behind CloudFront PUBLIC_URL names the origin; forwarded hosts are believed only from TRUSTED_PROXIES.",
  },
  { name: "x-forwarded-proto", reason: "Behind CloudFront PUBLIC_URL names the scheme too; believed only from TRUSTED_PROXIES." },
  {
    name: "x-forwarded-for",
    reason: "Believed only from TRUSTED_PROXIES (the local server); behind CloudFront the viewer address is cloudfront-viewer-address.",
  },
];
