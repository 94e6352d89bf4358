import { genericQueryRoute } from "./generic-query.js";
import { getToolRoute } from "./get-tool.js";
import { healthRoute } from "./health.js";
import { specSchemaRoute } from "./spec-schema.js";
import { listToolsRoute } from "./list-tools.js";
import { queryToolsRoute } from "./query-tools.js";
import type { RouteModule } from "../route-module.js";
import { sdkPackageRoute } from "./sdk-package.js";
import { toolArchiveRoute } from "./tool-archive.js";
import { toolVersionsRoute } from "./tool-versions.js";
import { WEB_ROUTES } from "../web/web-routes.js";

/** The fetch Lambda's routes (public reads). `/tools/:id` last: literal paths win. One line per route. */
export const FETCH_ROUTES: RouteModule[] = [
  healthRoute,
  specSchemaRoute,
  sdkPackageRoute,
  listToolsRoute,
  queryToolsRoute,
  genericQueryRoute,
  toolVersionsRoute,
  toolArchiveRoute,
  getToolRoute,
  ...WEB_ROUTES,
];
