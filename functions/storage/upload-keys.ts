/**
 * Where large bundles wait between the presigned PUT and `/complete`: `uploads/<uploadId>`.
 * The stack's lifecycle rule expires this prefix, so an upload never completed costs nothing.
 */
export const UPLOADS_PREFIX = "uploads/";

/** Upload ids are random UUIDs; anything else cannot name an upload object. */
const UPLOAD_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function isUploadId(value: string): boolean {
  return UPLOAD_ID.test(value);
}

export function uploadKey(uploadId: string): string {
  return `${UPLOADS_PREFIX}${uploadId}`;
}

/**
 * Who started the upload, beside its bytes: the registry writes it when it hands out the upload
 * URL (which signs `uploadKey` only, so the client cannot write this one), and the same
 * lifecycle rule expires it with the bytes.
 */
export function uploadOwnerKey(uploadId: string): string {
  return `${UPLOADS_PREFIX}${uploadId}.owner`;
}
