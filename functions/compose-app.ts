import { Hono } from "hono";
import { installErrorHandlers } from "./http/error-handlers.js";
import type { CatalogDeps } from "./catalog-deps.js";
import type { RouteModule } from "./route-module.js";

/** A Hono app of these route modules, in order, answering JSON for every error, 404 and 405. */
export function composeApp<Deps extends CatalogDeps>(deps: Deps, routes: readonly RouteModule<Deps>[]): Hono {
  const app = new Hono();
  for (const route of routes) route(app, deps);
  installErrorHandlers(app);
  return app;
}
