import type { handle } from "hono/aws-lambda";
import { createRegistryDeps } from "../registry-deps.js";
import { ROUTE_GROUPS, type RouteGroup } from "../routes/route-groups.js";
import { createGroupHandler, type LambdaHandlerOptions } from "./group-handler.js";

export type { LambdaHandlerOptions } from "./group-handler.js";

/** The handler of one group by name (tests); the entry points use `createGroupHandler` directly. */
export function createLambdaHandler(group: RouteGroup, options: LambdaHandlerOptions = {}): ReturnType<typeof handle> {
  return createGroupHandler(group, ROUTE_GROUPS[group], createRegistryDeps, options);
}
