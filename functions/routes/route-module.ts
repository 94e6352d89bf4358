import type { Hono } from "hono";
import type { RegistryDeps } from "../registry-deps.js";

/** One route module: registers its routes on the app. Groups of them make up each Lambda. */
export type RouteModule = (app: Hono, deps: RegistryDeps) => void;
