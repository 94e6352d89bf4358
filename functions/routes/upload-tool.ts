import { requireWriteToken } from "../auth/require-write-token.js";
import { readBundleUpload } from "../http/read-bundle-upload.js";
import { publishBundle } from "../publish/publish-bundle.js";
import { uploadAnswer } from "../publish/upload-answer.js";
import type { RouteModule } from "./route-module.js";

/** `POST /tools/upload`: multipart field `file` = bundle zip (seed-compatible). */
export const uploadToolRoute: RouteModule = (app, deps) => {
  app.post("/tools/upload", requireWriteToken(deps.verifyToken), async (c) => {
    const upload = await readBundleUpload(c.req.raw, deps.config.maxBundleBytes);
    const entry = await publishBundle(upload.bytes, { ...deps, limits: { maxBundleBytes: deps.config.maxBundleBytes } });
    return c.json(uploadAnswer(entry));
  });
};
