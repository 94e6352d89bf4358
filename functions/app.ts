import { Hono } from "hono";
import { installErrorHandlers } from "./http/error-handlers.js";
import type { RegistryDeps } from "./registry-deps.js";
import { ALL_ROUTE_GROUPS, ROUTE_GROUPS, type RouteGroup } from "./routes/route-groups.js";
import type { RouteModule } from "./routes/route-module.js";

export interface RegistryAppOptions {
  /** Which Lambda's routes to serve; all of them by default (the local server). */
  groups?: RouteGroup[];
  /** Routes registered before the groups (benchmarks add a hello-world route here). */
  extraRoutes?: RouteModule[];
}

/** The registry's Hono app, composed from route modules; JSON for every error, 404 and 405. */
export function createRegistryApp(deps: RegistryDeps, options: RegistryAppOptions = {}): Hono {
  const groups = new Set(options.groups ?? ALL_ROUTE_GROUPS);
  const app = new Hono();
  for (const route of options.extraRoutes ?? []) route(app, deps);
  for (const group of ALL_ROUTE_GROUPS) {
    if (!groups.has(group)) continue;
    const routes: RouteModule[] = ROUTE_GROUPS[group];
    for (const route of routes) route(app, deps);
  }
  installErrorHandlers(app);
  return app;
}
