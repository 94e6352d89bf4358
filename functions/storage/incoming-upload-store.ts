import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, PutObjectCommand, type S3Client } from "@aws-sdk/client-s3";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import { isMissingObject } from "./storage-errors.js";
import { uploadKey, uploadOwnerKey } from "./upload-keys.js";

/**
 * Large bundles waiting in S3 under `uploads/<uploadId>`: a presigned PUT lets the client send the
 * bytes straight to storage (past API Gateway's and Lambda's payload limits), then `/complete`
 * reads them back once and deletes them. Each upload records the publisher that started it
 * (`uploads/<uploadId>.owner`), and only that publisher may complete it.
 */
export class IncomingUploadStore {
  constructor(
    private readonly s3: S3Client,
    private readonly bucket: string,
  ) {}

  /**
   * A PUT URL for the upload's object. With `size`, the URL signs `content-length`, so storage
   * refuses any body of another size; without it, the size is checked at completion.
   */
  presignPut(uploadId: string, expiresInSeconds: number, size?: number): Promise<string> {
    const command = new PutObjectCommand({
      Bucket: this.bucket,
      Key: uploadKey(uploadId),
      ...(size === undefined ? {} : { ContentLength: size }),
    });
    return getSignedUrl(this.s3, command, {
      expiresIn: expiresInSeconds,
      ...(size === undefined ? {} : { signableHeaders: new Set(["content-length"]) }),
    });
  }

  /** Records that `publisher` started upload `uploadId` (before its URL is handed out). */
  async recordOwner(uploadId: string, publisher: string): Promise<void> {
    const body = JSON.stringify({ publisher });
    await this.s3.send(
      new PutObjectCommand({
        Bucket: this.bucket,
        Key: uploadOwnerKey(uploadId),
        Body: body,
        ContentLength: Buffer.byteLength(body),
        ContentType: "application/json",
      }),
    );
  }

  /** The publisher that started the upload, or undefined when no upload of this id was started (or it expired). */
  async owner(uploadId: string): Promise<string | undefined> {
    try {
      const result = await this.s3.send(new GetObjectCommand({ Bucket: this.bucket, Key: uploadOwnerKey(uploadId) }));
      const record = JSON.parse((await result.Body?.transformToString()) ?? "") as { publisher?: unknown };
      return typeof record.publisher === "string" ? record.publisher : undefined;
    } catch (error) {
      if (isMissingObject(error) || error instanceof SyntaxError) return undefined;
      throw error;
    }
  }

  /** The stored size, or undefined when nothing was uploaded under this id (never PUT, or expired). */
  async size(uploadId: string): Promise<number | undefined> {
    try {
      const head = await this.s3.send(new HeadObjectCommand({ Bucket: this.bucket, Key: uploadKey(uploadId) }));
      return head.ContentLength ?? 0;
    } catch (error) {
      if (isMissingObject(error)) return undefined;
      throw error;
    }
  }

  async read(uploadId: string): Promise<Uint8Array | undefined> {
    try {
      const result = await this.s3.send(new GetObjectCommand({ Bucket: this.bucket, Key: uploadKey(uploadId) }));
      return result.Body ? await result.Body.transformToByteArray() : new Uint8Array();
    } catch (error) {
      if (isMissingObject(error)) return undefined;
      throw error;
    }
  }

  /** Removes the bytes, then the owner record (so no bytes are ever left without the record that guards them). */
  async delete(uploadId: string): Promise<void> {
    await this.s3.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: uploadKey(uploadId) }));
    await this.s3.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: uploadOwnerKey(uploadId) }));
  }
}
