import { createHash } from "node:crypto";
import type { Context } from "hono";
import { notModified } from "../http/entity-tag.js";
import { requestOrigin } from "../http/request-origin.js";
import { HttpProblem } from "../http-problem.js";
import type { RegistryDeps } from "../registry-deps.js";
import type { RouteModule } from "../route-module.js";
import { sdkTarballUrl, type SdkPackageDigests, type SdkPackageSource } from "../sdk-package/sdk-package.js";
import { SDK_PACKAGE_CACHE_CONTROL } from "../storage/sdk-package-store.js";

/**
 * `GET /sdk`: which SDK this registry serves, with its tarball's URL, integrity and the commands
 * that install it; `GET /sdk/<file>`: the tarball itself (docs/registry.md#the-sdk-and-cli-from-the-registry).
 * On AWS, CloudFront answers `/sdk/*` from the bucket and the function never sees it.
 */
export const sdkPackageRoute: RouteModule = (app, deps) => {
  /** The bytes of the last tarball served, by sha256: one small file, verified once per process. */
  const verified = new Map<string, Uint8Array>();

  app.get("/sdk", async (c) => {
    const source = servedPackage(deps);
    const digests = await readyPackage(source);
    const url = sdkTarballUrl(requestOrigin(c, deps.config), source.file);
    c.header("Cache-Control", "no-cache");
    return c.json({
      name: source.name,
      version: source.version,
      file: source.file,
      url,
      ...digests,
      install: `npm install ${url}`,
      run: `npx --yes -p ${url} agent-tools --help`,
    });
  });

  app.get("/sdk/:file", async (c) => {
    const source = servedPackage(deps);
    const file = c.req.param("file");
    if (file !== source.file) {
      throw new HttpProblem(
        404,
        "SDK package not found",
        `This registry serves ${source.name} ${source.version} as /sdk/${source.file}, ` +
          `not ${JSON.stringify(file.slice(0, 80))}; GET /sdk says so too.`,
      );
    }
    const digests = await readyPackage(source);
    return sendTarball(c, source, digests, await verifiedBytes(deps, source, digests, verified));
  });
};

function servedPackage(deps: RegistryDeps): SdkPackageSource {
  if (deps.sdkPackage) return deps.sdkPackage;
  throw new HttpProblem(
    404,
    "No SDK package",
    "This registry was started without an SDK package to serve (the stack sets SDK_PACKAGE; npm start " +
      "packs the checkout's sdk/). Install the SDK from a tarball you pack yourself: cd sdk && npm pack.",
  );
}

async function readyPackage(source: SdkPackageSource): Promise<SdkPackageDigests> {
  try {
    return await source.ready();
  } catch (error) {
    throw new HttpProblem(503, "SDK package unavailable", `The registry could not prepare ${source.file}: ${(error as Error).message}`);
  }
}

/** Bytes are handed out only after their sha256 matched, like archives (docs/storage.md, "Archives"). */
async function verifiedBytes(
  deps: RegistryDeps,
  source: SdkPackageSource,
  digests: SdkPackageDigests,
  verified: Map<string, Uint8Array>,
): Promise<Uint8Array> {
  const known = verified.get(digests.sha256);
  if (known) return known;
  const bytes = await deps.sdkPackages.get(source.file);
  if (bytes === undefined || createHash("sha256").update(bytes).digest("hex") !== digests.sha256) {
    throw new HttpProblem(
      503,
      "SDK package unavailable",
      `${source.file} is ${bytes === undefined ? "missing from" : "damaged in"} this ` +
        `registry's storage; deploying the stack again (or restarting npm start) stores it anew.`,
    );
  }
  verified.clear();
  verified.set(digests.sha256, bytes);
  return bytes;
}

function sendTarball(c: Context, source: SdkPackageSource, digests: SdkPackageDigests, bytes: Uint8Array): Response {
  const etag = `"${digests.sha256}"`;
  const headers = { "Cache-Control": SDK_PACKAGE_CACHE_CONTROL };
  const unchanged = notModified(c, etag, headers);
  if (unchanged) return unchanged;
  return c.body(bytes as Uint8Array<ArrayBuffer>, 200, {
    ...headers,
    "Content-Type": "application/octet-stream",
    "Content-Length": String(bytes.byteLength),
    "Content-Disposition": `attachment; filename="${source.file}"`,
    ETag: etag,
    Digest: `sha-256=${Buffer.from(digests.sha256, "hex").toString("base64")}, sha-512=${digests.integrity.slice("sha512-".length)}`,
  });
}
