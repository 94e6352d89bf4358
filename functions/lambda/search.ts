// Lambda entry point of the search group (GET /tools/search).
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";

import { createLambdaHandler } from "./create-lambda-handler.js";

export const handler = createLambdaHandler("search");
