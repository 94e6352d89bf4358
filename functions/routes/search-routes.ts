import type { CatalogDeps } from "../catalog-deps.js";
import type { RouteModule } from "../route-module.js";
import { searchRoute } from "./search.js";

/** The search Lambda's routes. Adding a route is one line here. */
export const SEARCH_ROUTES: RouteModule<CatalogDeps>[] = [searchRoute];
