/**
 * The stack deploys the SDK it was built with: `npm pack` at synth becomes an asset that a
 * BucketDeployment copies to the archive bucket's `sdk/` (never pruning older versions'
 * tarballs), CloudFront serves `/sdk/*` from there through origin access control and is
 * invalidated by each deployment, and the fetch function is told what it serves (`SDK_PACKAGE`)
 * and may read it (for `/sdk/<file>` without CloudFront).
 */
import { createHash } from "node:crypto";
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseSdkPackage } from "../../functions/sdk-package/sdk-package.js";
import {
  FUNCTION_NAMES,
  functionLogicalId,
  functionRole,
  synthStack,
  type SynthesizedStack,
  type TemplateResources,
} from "./synth-stack.js";

const SDK_VERSION = (JSON.parse(readFileSync(new URL("../../sdk/package.json", import.meta.url), "utf8")) as { version: string }).version;

let synth: SynthesizedStack;
let resources: TemplateResources;

beforeAll(() => {
  synth = synthStack();
  resources = synth.template.toJSON().Resources as TemplateResources;
}, 120_000);
afterAll(() => synth?.cleanup());

const ofType = (type: string) => Object.entries(resources).filter(([, resource]) => resource.Type === type);
const deployment = () => {
  const found = ofType("Custom::CDKBucketDeployment");
  expect(found).toHaveLength(1);
  return found[0]![1].Properties;
};
const sdkPackageEnv = (name: string) =>
  resources[functionLogicalId(resources, name)]!.Properties.Environment.Variables.SDK_PACKAGE as string | undefined;

describe("the SDK package on AWS", () => {
  it("is uploaded to the archive bucket's sdk/, never pruned, with the route's caching and type", () => {
    const [bucketId] = ofType("AWS::S3::Bucket").find(([id]) => id.startsWith("StorageArchives"))!;
    expect(deployment()).toMatchObject({
      DestinationBucketName: { Ref: bucketId },
      DestinationBucketKeyPrefix: "sdk/",
      Prune: false,
      SystemMetadata: { "cache-control": "public, max-age=300", "content-type": "application/octet-stream" },
    });
  });

  it("tells the fetch function, and only it, what it serves: the packed tarball the asset holds", () => {
    const described = parseSdkPackage(sdkPackageEnv("Fetch")!);
    expect(described).toMatchObject({ name: "@agent-tools/sdk", version: SDK_VERSION, file: `agent-tools-sdk-${SDK_VERSION}.tgz` });
    for (const name of FUNCTION_NAMES.filter((name) => name !== "Fetch")) expect(sdkPackageEnv(name), name).toBeUndefined();
    // The staged asset is exactly that tarball.
    const assetDirs = readdirSync(synth.outdir).filter(
      (entry) => entry.startsWith("asset.") && statSync(join(synth.outdir, entry)).isDirectory(),
    );
    const staged = assetDirs.filter((dir) => readdirSync(join(synth.outdir, dir)).includes(described.file));
    expect(staged).toHaveLength(1);
    const bytes = readFileSync(join(synth.outdir, staged[0]!, described.file));
    expect(`sha512-${createHash("sha512").update(bytes).digest("base64")}`).toBe(described.integrity);
    expect(createHash("sha256").update(bytes).digest("hex")).toBe(described.sha256);
    expect(readdirSync(join(synth.outdir, staged[0]!))).toEqual([described.file]);
  });

  it("is served by CloudFront from the bucket like archives, and invalidated at each deployment", () => {
    const [distributionId, distribution] = ofType("AWS::CloudFront::Distribution")[0]!;
    const behaviors = distribution.Properties.DistributionConfig.CacheBehaviors as Record<string, any>[];
    const sdk = behaviors.find((behavior) => behavior.PathPattern === "/sdk/*")!;
    const archives = behaviors.find((behavior) => behavior.PathPattern === "/archives/*")!;
    expect(sdk).toMatchObject({ AllowedMethods: ["GET", "HEAD"], ViewerProtocolPolicy: "https-only", Compress: false });
    expect(sdk.TargetOriginId).toBe(archives.TargetOriginId);
    expect(sdk.CachePolicyId).toBe(archives.CachePolicyId);
    expect(deployment()).toMatchObject({ DistributionId: { Ref: distributionId }, DistributionPaths: ["/sdk/*"] });
  });

  it("is readable by the fetch function (it serves /sdk/<file> when there is no CloudFront), by no other", () => {
    const readsSdk = (name: string) => JSON.stringify(functionRole(resources, name).statements).includes('"/sdk/*"');
    expect(readsSdk("Fetch")).toBe(true);
    for (const name of FUNCTION_NAMES.filter((name) => name !== "Fetch")) expect(readsSdk(name), name).toBe(false);
  });

  it("deploys without CloudFront too, then invalidating nothing", () => {
    const bare = synthStack({ cdn: "false" });
    try {
      const [, upload] = Object.entries(bare.template.toJSON().Resources as TemplateResources).find(
        ([, resource]) => resource.Type === "Custom::CDKBucketDeployment",
      )!;
      expect(upload.Properties.DistributionId).toBeUndefined();
      expect(upload.Properties.DestinationBucketKeyPrefix).toBe("sdk/");
    } finally {
      bare.cleanup();
    }
  }, 120_000);
});
