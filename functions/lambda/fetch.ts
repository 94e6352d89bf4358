// Lambda entry point of the fetch group (GET routes: entries, lists, versions, archives, query/by-*, health).
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";

import { createLambdaHandler } from "./create-lambda-handler.js";

export const handler = createLambdaHandler("fetch");
