import { handle } from "hono/aws-lambda";
import { envTokenVerifier } from "../auth/env-token.js";
import { rejectAllTokens, type TokenVerifier } from "../auth/token-verifier.js";
import { composeApp } from "../compose-app.js";
import { loadConfig } from "../config.js";
import { createRegistryDeps, type RegistryDepsOptions } from "../registry-deps.js";
import type { RouteGroup } from "../routes/route-groups.js";
import type { RouteModule } from "../routes/route-module.js";

export interface LambdaHandlerOptions extends RegistryDepsOptions {
  env?: Record<string, string | undefined>;
  /** Default: `REGISTRY_TOKEN_SHA256` for the upload group; no writes for the others. */
  verifyToken?: TokenVerifier;
}

/**
 * An API Gateway (HTTP API, payload v2) handler serving `routes`, configured from env. Takes the
 * routes rather than a group's name, so a Lambda bundle holds only the modules it serves.
 */
export function createGroupHandler(
  group: RouteGroup,
  routes: readonly RouteModule[],
  options: LambdaHandlerOptions = {},
): ReturnType<typeof handle> {
  const env = options.env ?? process.env;
  const verifyToken = options.verifyToken ?? (group === "upload" ? envTokenVerifier(env) : rejectAllTokens);
  const deps = createRegistryDeps(loadConfig(env), verifyToken, options);
  return handle(composeApp(deps, routes));
}
