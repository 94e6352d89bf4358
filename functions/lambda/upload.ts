// Lambda entry point of the upload group (POST /tools/upload, POST /tools/uploads[/{id}/complete], PUT and DELETE /tools/{id}).
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";

import { secretsManagerTokenVerifier } from "../auth/secrets-manager-token.js";
import { createRegistryDeps } from "../registry-deps.js";
import { UPLOAD_ROUTES } from "../routes/upload-routes.js";
import { createGroupHandler } from "./group-handler.js";

// The stack passes its generated write-token secret; without it, `REGISTRY_TOKEN_SHA256` applies.
const secretArn = process.env.TOKEN_SECRET_ARN;
export const handler = createGroupHandler(
  "upload",
  UPLOAD_ROUTES,
  createRegistryDeps,
  secretArn ? { verifyToken: secretsManagerTokenVerifier({ secretArn }) } : {},
);
