// Lambda entry point of the search group (GET /tools/search).
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";

import { SEARCH_ROUTES } from "../routes/search-routes.js";
import { createCatalogDeps } from "../catalog-deps.js";
import { checkSearchRuntimeAtStart } from "../search/search-runtime.js";
import { createGroupHandler } from "./group-handler.js";

export const handler = createGroupHandler("search", SEARCH_ROUTES, createCatalogDeps);
checkSearchRuntimeAtStart();
