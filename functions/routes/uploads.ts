import { randomUUID } from "node:crypto";
import { admitRelease } from "../trust/admit-release.js";
import { requireWriter } from "../trust/require-writer.js";
import { completeAuditAs, writerOf } from "../trust/writer.js";
import { readJsonBody } from "../http/read-json-body.js";
import { HttpProblem } from "../http-problem.js";
import { requestOrigin } from "../http/request-origin.js";
import { publishBundle } from "../publish/publish-bundle.js";
import { uploadAnswer } from "../publish/upload-answer.js";
import { isUploadId } from "../storage/upload-keys.js";
import type { RouteModule } from "../route-module.js";

/** How long the presigned PUT stays valid; the object itself is kept a day (bucket lifecycle). */
export const UPLOAD_URL_EXPIRES_SECONDS = 15 * 60;

/**
 * Large bundles, past API Gateway's 10 MB and Lambda's 6 MB payload limits:
 * `POST /tools/uploads` hands out a presigned PUT straight to storage, and
 * `POST /tools/uploads/{uploadId}/complete` publishes what arrived exactly like `/tools/upload`.
 * An upload belongs to the publisher whose token started it: anyone else's completion is a 403
 * that leaves it exactly as it was (docs/registry.md#large-uploads).
 */
export const uploadsRoute: RouteModule = (app, deps) => {
  const store = deps.incomingUploads;
  const maxBytes = deps.config.maxBundleBytes;

  app.post("/tools/uploads", requireWriter(deps, { action: "publish" }), async (c) => {
    // The tool id is only known from the bundle, at completion; a token without "publish" stops here.
    const writer = writerOf(c);
    if (!writer.admin && !writer.token.actions.includes("publish")) throw cannotPublish(writer.publisher);
    const size = declaredSize(await readJsonBody(c));
    if (size !== undefined && size > maxBytes) throw tooLarge(size, maxBytes);
    // The bundle waits on this disk too, beside its archive once published (local server only).
    if (size !== undefined) await deps.space?.assertRoomFor(size);
    const uploadId = randomUUID();
    await store.recordOwner(uploadId, writer.publisher);
    const uploadUrl = await store.presignPut(uploadId, UPLOAD_URL_EXPIRES_SECONDS, size);
    const expiresAt = new Date(Date.now() + UPLOAD_URL_EXPIRES_SECONDS * 1000).toISOString();
    const completeUrl = `${requestOrigin(c, deps.config)}/tools/uploads/${uploadId}/complete`;
    return c.json({ uploadId, uploadUrl, expiresAt, maxBytes, completeUrl }, 201);
  });

  app.post("/tools/uploads/:uploadId/complete", requireWriter(deps, { action: "publish" }), async (c) => {
    const uploadId = c.req.param("uploadId");
    const [owner, size] = isUploadId(uploadId) ? await Promise.all([store.owner(uploadId), store.size(uploadId)]) : [];
    // Bytes without an owner record were PUT to a URL handed out before uploads recorded their owner: start again.
    if (owner === undefined || size === undefined) throw unknownUpload(uploadId);
    // Refused before the `finally` below: a caller who does not own the upload must not be able to remove it.
    if (owner !== writerOf(c).publisher) throw notYourUpload(uploadId);
    try {
      if (size > maxBytes) throw tooLarge(size, maxBytes);
      const bytes = await store.read(uploadId);
      if (bytes === undefined) throw unknownUpload(uploadId);
      const entry = await publishBundle(bytes, { ...deps, admit: admitRelease(c, deps), besideLastWrite: () => completeAuditAs(c, 200) });
      return c.json(uploadAnswer(entry));
    } finally {
      // Published or rejected, the incoming copy has served its purpose (the archive lives under archives/).
      await store.delete(uploadId);
    }
  });
};

function declaredSize(body: unknown): number | undefined {
  if (body === undefined) return undefined;
  const size = typeof body === "object" && body !== null ? (body as { size?: unknown }).size : undefined;
  if (
    typeof body !== "object" ||
    body === null ||
    Array.isArray(body) ||
    (size !== undefined && !(Number.isSafeInteger(size) && (size as number) > 0))
  ) {
    throw new HttpProblem(
      400,
      "Invalid upload request",
      'Send an empty body or a JSON object {"size": <bundle bytes>}, size a positive integer.',
    );
  }
  return size as number | undefined;
}

function cannotPublish(publisher: string): HttpProblem {
  return new HttpProblem(
    403,
    "Forbidden",
    `The token of publisher "${publisher}" may not publish; ask the registry admin for a token with the "publish" action.`,
  );
}

function tooLarge(size: number, maxBytes: number): HttpProblem {
  return new HttpProblem(
    413,
    "Bundle too large",
    `The bundle is ${size} bytes; the limit is ${maxBytes} bytes (MAX_BUNDLE_BYTES). Shrink tool.zip (leave out build outputs and caches).`,
  );
}

function notYourUpload(uploadId: string): HttpProblem {
  return new HttpProblem(
    403,
    "Forbidden",
    `Upload "${uploadId}" was started with another publisher's token; only the publisher ` +
      `whose token started it (POST /tools/uploads) may complete it. Start your own upload.`,
  );
}

function unknownUpload(uploadId: string): HttpProblem {
  return new HttpProblem(
    404,
    "Upload not found",
    `No bundle is waiting under upload id "${uploadId}": it was never PUT to its uploadUrl, ` +
      `already completed, or expired (uploads are kept one day). Start again with POST /tools/uploads.`,
  );
}
