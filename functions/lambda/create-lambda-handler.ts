import { handle } from "hono/aws-lambda";
import { createRegistryApp } from "../app.js";
import { envTokenVerifier } from "../auth/env-token.js";
import { rejectAllTokens, type TokenVerifier } from "../auth/token-verifier.js";
import { loadConfig } from "../config.js";
import { createRegistryDeps, type RegistryDepsOptions } from "../registry-deps.js";
import type { RouteGroup } from "../routes/route-groups.js";

export interface LambdaHandlerOptions extends RegistryDepsOptions {
  env?: Record<string, string | undefined>;
  /** Default: `REGISTRY_TOKEN_SHA256` for the upload group; no writes for the others. */
  verifyToken?: TokenVerifier;
}

/** An API Gateway (HTTP API, payload v2) handler serving one route group, configured from env. */
export function createLambdaHandler(group: RouteGroup, options: LambdaHandlerOptions = {}): ReturnType<typeof handle> {
  const env = options.env ?? process.env;
  const verifyToken = options.verifyToken ?? (group === "upload" ? envTokenVerifier(env) : rejectAllTokens);
  const deps = createRegistryDeps(loadConfig(env), verifyToken, options);
  return handle(createRegistryApp(deps, { groups: [group] }));
}
