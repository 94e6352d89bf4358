import type { Hono } from "hono";
import { composeApp } from "./compose-app.js";
import type { RegistryDeps } from "./registry-deps.js";
import { ALL_ROUTE_GROUPS, ROUTE_GROUPS, type RouteGroup } from "./routes/route-groups.js";
import type { RouteModule } from "./route-module.js";

export interface RegistryAppOptions {
  /** Which Lambdas' routes to serve; all of them by default (the local server). */
  groups?: RouteGroup[];
  /** Routes registered before the groups (benchmarks add a hello-world route here). */
  extraRoutes?: RouteModule[];
}

/** The registry's Hono app, composed from the route modules of the chosen groups. */
export function createRegistryApp(deps: RegistryDeps, options: RegistryAppOptions = {}): Hono {
  const groups = new Set(options.groups ?? ALL_ROUTE_GROUPS);
  const routes = ALL_ROUTE_GROUPS.filter((group) => groups.has(group)).flatMap((group) => ROUTE_GROUPS[group]);
  return composeApp(deps, [...(options.extraRoutes ?? []), ...routes]);
}
