import S3Error from "s3rver/lib/models/error.js";
import type S3rver from "s3rver";
import type { S3rverContext, S3rverObject, S3rverStore } from "s3rver";

/**
 * Makes s3rver honour `If-None-Match: *` on PutObject as S3 does: when the key holds an object,
 * the answer is `412 PreconditionFailed` and nothing is written. s3rver ignores the header and
 * overwrites, so the archive store had to HEAD every archive before writing it; with this, the
 * embedded store writes an archive once in one call, through the same code path as on AWS
 * (docs/durability.md, "Archives").
 *
 * The check (a `stat` of the object's file) and the write are not atomic, as S3's are: the
 * embedded store is used by one process (the data-folder lock), whose archive store runs
 * same-key operations in turn (`keyed-lock.ts`). The check runs where s3rver stores the object,
 * after it authenticated the request. Multipart uploads and copies keep s3rver's behaviour.
 */
export function honourIfNoneMatch(s3: S3rver): void {
  const conditional = (store: S3rverStore): S3rverStore =>
    Object.create(store, {
      putObject: {
        value: async (object: S3rverObject) => {
          if (await store.existsObject(object.bucket, object.key)) {
            throw new S3Error("PreconditionFailed", "At least one of the pre-conditions you specified did not hold", {
              Condition: "If-None-Match",
            });
          }
          return store.putObject(object);
        },
      },
    }) as S3rverStore;
  // Before s3rver's own middleware (Koa composes the list when the server starts).
  s3.middleware.unshift(async (ctx: S3rverContext, next: () => Promise<void>) => {
    // Only PutObject stores through `putObject` (parts, copies and tags have their own store calls).
    if (ctx.method === "PUT" && ctx.headers["if-none-match"] === "*" && ctx.headers["x-amz-copy-source"] === undefined) {
      ctx.store = conditional(ctx.store);
    }
    await next();
  });
}
