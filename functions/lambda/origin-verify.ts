import type { handle, LambdaEvent } from "hono/aws-lambda";
import { carriesOriginSecret, ORIGIN_VERIFY_HEADER } from "../http/origin-secret.js";

type LambdaHandler = ReturnType<typeof handle>;

/**
 * With `ORIGIN_VERIFY_SECRET` set (the stack sets it when CloudFront is in front), only requests
 * carrying that secret in `x-origin-verify` reach the app: the `execute-api` endpoint then answers
 * 403 to everyone but the distribution, so its caching and WAF cannot be bypassed. HTTP APIs have
 * no resource policy, so this check is what "origin access" means for them.
 */
export function originVerifiedHandler(inner: LambdaHandler, secret: string | undefined, publicUrl: string | undefined): LambdaHandler {
  if (!secret) return inner;
  return (async (event: LambdaEvent, context) => {
    const headers = (event as { headers?: Record<string, string | undefined> }).headers ?? {};
    if (carriesOriginSecret(headers[ORIGIN_VERIFY_HEADER], secret)) return inner(event, context);
    return {
      statusCode: 403,
      headers: { "content-type": "application/json" },
      isBase64Encoded: false,
      body: JSON.stringify({
        error: "Forbidden",
        detail:
          `This endpoint answers only through the registry's CloudFront ` +
          `distribution; use ${publicUrl ?? "the registry's public URL"}.`,
      }),
    };
  }) as LambdaHandler;
}
