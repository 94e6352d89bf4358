import { GetObjectCommand, PutObjectCommand, type S3Client } from "@aws-sdk/client-s3";
import { isMissingObject } from "./storage-errors.js";

/** Where SDK tarballs live in the bucket; CloudFront serves `/sdk/*` straight from here on AWS. */
export const SDK_PACKAGE_PREFIX = "sdk/";

/**
 * How long a client or the edge keeps a tarball before revalidating. Its name carries the version,
 * but a rebuilt SDK of the same version (a development build, a redeploy) replaces the bytes.
 */
export const SDK_PACKAGE_CACHE_CONTROL = "public, max-age=300";

/** The SDK tarballs the registry serves at `/sdk/<file>`, one object per file name. */
export class SdkPackageStore {
  constructor(
    private readonly s3: S3Client,
    private readonly bucket: string,
  ) {}

  static key(file: string): string {
    return `${SDK_PACKAGE_PREFIX}${file}`;
  }

  async put(file: string, bytes: Uint8Array): Promise<void> {
    await this.s3.send(
      new PutObjectCommand({
        Bucket: this.bucket,
        Key: SdkPackageStore.key(file),
        Body: bytes,
        ContentType: "application/octet-stream",
        CacheControl: SDK_PACKAGE_CACHE_CONTROL,
      }),
    );
  }

  /** The tarball's bytes, or undefined when it is not stored. */
  async get(file: string): Promise<Uint8Array | undefined> {
    try {
      const result = await this.s3.send(new GetObjectCommand({ Bucket: this.bucket, Key: SdkPackageStore.key(file) }));
      return result.Body ? await result.Body.transformToByteArray() : new Uint8Array();
    } catch (error) {
      if (isMissingObject(error)) return undefined;
      throw error;
    }
  }
}
