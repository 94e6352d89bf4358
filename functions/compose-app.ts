import { Hono } from "hono";
import { installErrorHandlers } from "./http/error-handlers.js";
import type { RegistryDeps } from "./registry-deps.js";
import type { RouteModule } from "./routes/route-module.js";

/** A Hono app of these route modules, in order, answering JSON for every error, 404 and 405. */
export function composeApp(deps: RegistryDeps, routes: readonly RouteModule[]): Hono {
  const app = new Hono();
  for (const route of routes) route(app, deps);
  installErrorHandlers(app);
  return app;
}
