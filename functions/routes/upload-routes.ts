import { auditLogRoute } from "./audit-log.js";
import { deleteToolRoute } from "./delete-tool.js";
import { publisherKeysRoute } from "./publisher-keys.js";
import { registryDoctorRoute } from "./registry-doctor.js";
import type { RouteModule } from "../route-module.js";
import { tokensRoute } from "./tokens.js";
import { updateToolRoute } from "./update-tool.js";
import { uploadToolRoute } from "./upload-tool.js";
import { uploadsRoute } from "./uploads.js";
import { versionLifecycleRoute } from "./version-lifecycle.js";

/** The upload Lambda's routes (writes). Adding a route is one line here. */
export const UPLOAD_ROUTES: RouteModule[] = [
  uploadToolRoute,
  uploadsRoute,
  updateToolRoute,
  deleteToolRoute,
  registryDoctorRoute,
  tokensRoute,
  auditLogRoute,
  versionLifecycleRoute,
  publisherKeysRoute,
];
