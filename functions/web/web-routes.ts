import type { RouteModule } from "../route-module.js";
import { catalogueRoute } from "./catalogue-route.js";
import { toolRoute } from "./tool-route.js";

/** The web catalogue's pages (server-rendered HTML, no client code needed); served by the fetch group. */
export const WEB_ROUTES: RouteModule[] = [catalogueRoute, toolRoute];
