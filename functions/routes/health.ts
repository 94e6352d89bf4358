import type { RouteModule } from "../route-module.js";

export const healthRoute: RouteModule = (app) => {
  app.get("/health", (c) => c.json({ status: "ok" }));
};
