import type { MiddlewareHandler } from "hono";
import { RegistryError } from "../http/registry-error.js";
import type { TokenVerifier } from "./token-verifier.js";

const HOW_TO = 'Send "Authorization: Bearer <token>" with the write token printed by the registry\'s first start (or set REGISTRY_TOKEN).';

/** Guards write routes: 401 JSON for a missing, malformed or wrong bearer token. */
export function requireWriteToken(verify: TokenVerifier): MiddlewareHandler {
  return async (c, next) => {
    const header = c.req.header("authorization");
    if (header === undefined || header.trim() === "") throw unauthorized("This route needs a write token and none was sent.");
    const match = /^Bearer[ \t]+([^\s]+)[ \t]*$/i.exec(header);
    if (!match?.[1]) throw unauthorized('The Authorization header is malformed: expected "Bearer <token>".');
    if (!(await verify(match[1]))) throw unauthorized("The write token is not valid for this registry.");
    await next();
  };
}

function unauthorized(reason: string): RegistryError {
  return new RegistryError(401, "Unauthorized", `${reason} ${HOW_TO}`);
}
