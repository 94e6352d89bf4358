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
  }
  /** The parts of a Koa request context that middleware in front of s3rver uses. */
  export interface S3rverContext {
    method: string;
    headers: Record<string, string | string[] | undefined>;
    store: S3rverStore;
  }
  /** s3rver's FilesystemStore, the methods wrapped here. */
  export interface S3rverStore {
    existsObject(bucket: string, key: string): Promise<boolean>;
    putObject(object: { bucket: string; key: string }): Promise<unknown>;
  }
}

declare module "s3rver/lib/models/error.js" {
  /** s3rver's S3 error: its code sets the status (`PreconditionFailed` is 412) and the XML body. */
  export default class S3Error extends Error {
    constructor(code: string, message: string, detail?: Record<string, string>);
  }
}
