import { handle } from "hono/aws-lambda";
import { envTokenVerifier } from "../auth/env-token.js";
import { rejectAllTokens, type TokenVerifier } from "../auth/token-verifier.js";
import type { CatalogDeps, CatalogDepsOptions } from "../catalog-deps.js";
import { composeApp } from "../compose-app.js";
import { loadConfig, type RegistryConfig } from "../config.js";
import type { RouteGroup } from "../routes/route-groups.js";
import type { RouteModule } from "../route-module.js";
import { observedHandler } from "./observed-handler.js";
import { originVerifiedHandler } from "./origin-verify.js";

export interface LambdaHandlerOptions extends CatalogDepsOptions {
  env?: Record<string, string | undefined>;
  /** Default: `REGISTRY_TOKEN_SHA256` for the upload group; no writes for the others. */
  verifyToken?: TokenVerifier;
}

/** Builds what a group's routes use: `createRegistryDeps`, or `createCatalogDeps` for groups that never touch archives. */
export type DepsFactory<Deps extends CatalogDeps> = (
  config: RegistryConfig,
  verifyToken: TokenVerifier,
  options: CatalogDepsOptions,
) => Deps;

/**
 * An API Gateway (HTTP API, payload v2) handler serving `routes`, configured from env, with JSON
 * request logs and EMF metrics. Takes the routes and the deps factory rather than a group's name,
 * so a Lambda bundle holds only the modules (and AWS clients) it uses.
 */
export function createGroupHandler<Deps extends CatalogDeps>(
  group: RouteGroup,
  routes: readonly RouteModule<Deps>[],
  createDeps: DepsFactory<Deps>,
  options: LambdaHandlerOptions = {},
): ReturnType<typeof handle> {
  const env = options.env ?? process.env;
  const verifyToken = options.verifyToken ?? (group === "upload" ? envTokenVerifier(env) : rejectAllTokens);
  const config = loadConfig(env);
  const deps = createDeps(config, verifyToken, options);
  return observedHandler(group, originVerifiedHandler(handle(composeApp(deps, routes)), env.ORIGIN_VERIFY_SECRET, config.publicUrl), env);
}
