import { deleteToolRoute } from "./delete-tool.js";
import { getToolRoute } from "./get-tool.js";
import { healthRoute } from "./health.js";
import { listToolsRoute } from "./list-tools.js";
import { queryToolsRoute } from "./query-tools.js";
import type { RouteModule } from "./route-module.js";
import { searchRoute } from "./search.js";
import { toolArchiveRoute } from "./tool-archive.js";
import { toolVersionsRoute } from "./tool-versions.js";
import { updateToolRoute } from "./update-tool.js";
import { uploadToolRoute } from "./upload-tool.js";
import { uploadsRoute } from "./uploads.js";

/**
 * The route modules of each Lambda. Adding a route is one line in its group. Groups register in
 * this order, so `search` (literal paths such as `/tools/search`) comes before `fetch`'s
 * `/tools/:id`.
 */
export const ROUTE_GROUPS = {
  upload: [uploadToolRoute, uploadsRoute, updateToolRoute, deleteToolRoute],
  search: [searchRoute],
  fetch: [healthRoute, listToolsRoute, queryToolsRoute, toolVersionsRoute, toolArchiveRoute, getToolRoute],
} satisfies Record<string, RouteModule[]>;

export type RouteGroup = keyof typeof ROUTE_GROUPS;
export const ALL_ROUTE_GROUPS: RouteGroup[] = ["upload", "search", "fetch"];
