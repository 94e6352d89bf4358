import { deleteToolRoute } from "./delete-tool.js";
import { registryDoctorRoute } from "./registry-doctor.js";
import type { RouteModule } from "./route-module.js";
import { updateToolRoute } from "./update-tool.js";
import { uploadToolRoute } from "./upload-tool.js";
import { uploadsRoute } from "./uploads.js";

/** The upload Lambda's routes (writes). Adding a route is one line here. */
export const UPLOAD_ROUTES: RouteModule[] = [uploadToolRoute, uploadsRoute, updateToolRoute, deleteToolRoute, registryDoctorRoute];
