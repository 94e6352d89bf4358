import { admitRelease } from "../trust/admit-release.js";
import { requireWriter } from "../trust/require-writer.js";
import { auditStored, completeAuditAs } from "../trust/writer.js";
import { readBundleUpload } from "../http/read-bundle-upload.js";
import { publishBundle } from "../publish/publish-bundle.js";
import { uploadAnswer } from "../publish/upload-answer.js";
import type { RouteModule } from "../route-module.js";

/**
 * `POST /tools/upload`: multipart field `file` = bundle zip (seed-compatible). The body is read
 * and validated while the audit event is stored, and the audit outcome goes beside the publish's
 * last write (docs/durability.md#cost).
 */
export const uploadToolRoute: RouteModule = (app, deps) => {
  app.post("/tools/upload", requireWriter(deps, { action: "publish", beforeAuditStored: true }), async (c) => {
    const upload = await readBundleUpload(c.req.raw, deps.config.maxBundleBytes);
    const entry = await publishBundle(upload.bytes, {
      ...deps,
      limits: { maxBundleBytes: deps.config.maxBundleBytes },
      admit: admitRelease(c, deps),
      beforeFirstWrite: () => auditStored(c),
      besideLastWrite: () => completeAuditAs(c, 200),
    });
    return c.json(uploadAnswer(entry));
  });
};
