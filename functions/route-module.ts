import type { Hono } from "hono";
import type { CatalogDeps } from "./catalog-deps.js";
import type { RegistryDeps } from "./registry-deps.js";

/**
 * One route module: registers its routes on the app. Groups of them make up each Lambda. A module
 * that needs less than `RegistryDeps` says so (`RouteModule<CatalogDeps>`), so its Lambda can
 * leave the rest (the S3 client) out of its bundle.
 */
export type RouteModule<Deps extends CatalogDeps = RegistryDeps> = (app: Hono, deps: Deps) => void;
