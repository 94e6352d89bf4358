import { FETCH_ROUTES } from "./fetch-routes.js";
import type { RouteModule } from "../route-module.js";
import { SEARCH_ROUTES } from "./search-routes.js";
import { UPLOAD_ROUTES } from "./upload-routes.js";

/**
 * Every group, for the local server and tests. Each Lambda entry imports only its own group's
 * file, so its bundle leaves the other groups' code out.
 */
export const ROUTE_GROUPS = {
  upload: UPLOAD_ROUTES,
  search: SEARCH_ROUTES,
  fetch: FETCH_ROUTES,
} satisfies Record<string, RouteModule[]>;

export type RouteGroup = keyof typeof ROUTE_GROUPS;

/** Registration order: `search` (literal paths such as `/tools/search`) before `fetch`'s `/tools/:id`. */
export const ALL_ROUTE_GROUPS: RouteGroup[] = ["upload", "search", "fetch"];
