// Minimal typings for the two in-process emulators (neither ships its own).
declare module "dynalite" {
  import type { Server } from "node:http";
  function dynalite(options?: { path?: string; createTableMs?: number; deleteTableMs?: number; updateTableMs?: number }): Server;
  export default dynalite;
}

declare module "s3rver" {
  import type { AddressInfo } from "node:net";
  export default class S3rver {
    constructor(options: {
      address?: string;
      port?: number;
      directory: string;
      silent?: boolean;
      resetOnClose?: boolean;
      configureBuckets?: { name: string }[];
    });
    run(): Promise<AddressInfo>;
    close(): Promise<void>;
    /** Koa's middleware list (s3rver is a Koa app), composed when the server starts. */
    middleware: ((ctx: S3rverContext, next: () => Promise<void>) => Promise<void>)[];
    /** The FilesystemStore every request uses (`ctx.store`, unless middleware swaps it). */
    store: S3rverStore;
  }
  /** The parts of a Koa request context that middleware in front of s3rver uses. */
  export interface S3rverContext {
    method: string;
    headers: Record<string, string | string[] | undefined>;
    store: S3rverStore;
  }
  /** What s3rver stores: the body as a request stream (or bytes) and the request's headers as metadata. */
  export interface S3rverObject {
    bucket: string;
    key: string;
    content: import("node:stream").Readable | Buffer;
    metadata: Record<string, string>;
  }
  /** s3rver's FilesystemStore, the methods used or replaced here. */
  export interface S3rverStore {
    existsObject(bucket: string, key: string): Promise<boolean>;
    putObject(object: S3rverObject): Promise<{ size: number; md5: string }>;
    putPart(
      bucket: string,
      uploadId: string,
      partNumber: number,
      content: import("node:stream").Readable,
    ): Promise<{ size: number; md5: string }>;
    /** The file of a key's `object`, `metadata.json` or `object.md5` (`<key>._S3rver_<resource>`); `uploads` with no key. */
    getResourcePath(bucket: string, key: string | undefined, resource: string): string;
  }
}

declare module "s3rver/lib/models/error.js" {
  /** s3rver's S3 error: its code sets the status (`PreconditionFailed` is 412) and the XML body; `status` can be set after. */
  export default class S3Error extends Error {
    constructor(code: string, message: string, detail?: Record<string, string>);
    status: number;
  }
}

declare module "s3rver/lib/models/object.js" {
  /** s3rver's object model: `ALLOWED_METADATA` are the headers it keeps in `metadata.json` (with every `x-amz-meta-*`). */
  const S3Object: { ALLOWED_METADATA: string[] };
  export default S3Object;
}
