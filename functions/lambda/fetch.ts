// Lambda entry point of the fetch group (GET routes: entries, lists, versions, archives, query/by-*, health).
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";

import { FETCH_ROUTES } from "../routes/fetch-routes.js";
import { createRegistryDeps } from "../registry-deps.js";
import { createGroupHandler } from "./group-handler.js";

export const handler = createGroupHandler("fetch", FETCH_ROUTES, createRegistryDeps);
