import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { Distribution } from "aws-cdk-lib/aws-cloudfront";
import type { Bucket } from "aws-cdk-lib/aws-s3";
import { BucketDeployment, CacheControl, Source } from "aws-cdk-lib/aws-s3-deployment";
import { type CfnResource, Stack, Token } from "aws-cdk-lib";
import { Construct } from "constructs";
import { CHECKOUT_SDK_DIR } from "../functions/local/local-sdk-package.js";
import { packSdkSync, type PackedSdk } from "../functions/sdk-package/pack-sdk.js";
import type { SdkPackage } from "../functions/sdk-package/sdk-package.js";
import { SDK_PACKAGE_CACHE_CONTROL, SDK_PACKAGE_PREFIX } from "../functions/storage/sdk-package-store.js";
import { acknowledgeFinding } from "./acknowledge-finding.js";

export interface SdkPackageDeploymentProps {
  readonly bucket: Bucket;
  /** When CloudFront serves `/sdk/*`, its cached copies are invalidated on each deployment. */
  readonly distribution?: Distribution;
}

/**
 * The SDK this stack's functions were built with, served at `/sdk/<file>`
 * (docs/deployment.md#the-sdk-and-cli-from-the-registry): `npm pack` of `sdk/` at synth, uploaded
 * to the bucket's `sdk/` by a BucketDeployment, served by CloudFront straight from there (by the
 * fetch function without it), and described to the fetch function by `SDK_PACKAGE`. Older
 * versions' tarballs stay (no pruning), so a snippet copied from an older page keeps installing.
 */
export class SdkPackageDeployment extends Construct {
  readonly sdkPackage: SdkPackage;
  readonly deployment: BucketDeployment;

  constructor(scope: Construct, id: string, props: SdkPackageDeploymentProps) {
    super(scope, id);
    const { path, ...sdkPackage } = packedSdk();
    this.sdkPackage = sdkPackage;
    this.deployment = new BucketDeployment(this, "Upload", {
      sources: [Source.asset(dirname(path))],
      destinationBucket: props.bucket,
      destinationKeyPrefix: SDK_PACKAGE_PREFIX,
      prune: false,
      contentType: "application/octet-stream",
      cacheControl: [CacheControl.fromString(SDK_PACKAGE_CACHE_CONTROL)],
      ...(props.distribution ? { distribution: props.distribution, distributionPaths: [`/${SDK_PACKAGE_PREFIX}*`] } : {}),
    });
    acknowledgeHandlerFindings(this, props.bucket);
  }
}

/**
 * The BucketDeployment's handler is CDK's own singleton function (CloudFormation invokes it only
 * while deploying), with the grants CDK gives it; these findings are about that code, not ours.
 */
function handlerFindings(bucket: Bucket): Record<string, string> {
  const stack = Stack.of(bucket);
  const bucketArn = `<${stack.resolve((bucket.node.defaultChild as CfnResource).logicalId)}.Arn>`;
  // cdk-nag names the bootstrap bucket as the template does: pseudo parameters unless the stack pins them.
  const named = (value: string, pseudo: string) => (Token.isUnresolved(value) ? `<AWS::${pseudo}>` : value);
  const assets = `cdk-hnb659fds-assets-${named(stack.account, "AccountId")}-${named(stack.region, "Region")}`;
  const copies = "CDK's BucketDeployment handler, which only CloudFormation invokes, during a deployment, to copy the SDK tarball";
  return {
    "AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]":
      `${copies}, logs ` + `with this policy.`,
    ...Object.fromEntries(
      ["s3:GetObject*", "s3:GetBucket*", "s3:List*", "s3:DeleteObject*", "s3:Abort*"].map((action) => [
        `AwsSolutions-IAM5[Action::${action}]`,
        `${copies}, reads the staged asset and writes the bucket with CDK's grantRead/grantReadWrite; with prune off it deletes nothing.`,
      ]),
    ),
    [`AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:s3:::` + `${assets}/*]`]:
      `${copies}, reads the asset CDK ` + `staged in its bootstrap bucket.`,
    [`AwsSolutions-IAM5[Resource::` + `${bucketArn}/*]`]:
      `${copies}, writes it under sdk/ of this bucket (CDK grants ` + `the bucket; prune is off, so nothing else is touched).`,
    "AwsSolutions-IAM5[Resource::*]":
      `${copies}, invalidates /sdk/* in the distribution; CloudFront ` + `invalidation actions take no narrower resource in CDK's grant.`,
    "AwsSolutions-L1":
      "CDK's BucketDeployment handler runs the Python runtime this aws-cdk-lib version pins; upgrading aws-cdk-lib moves it.",
  };
}

function acknowledgeHandlerFindings(scope: Construct, bucket: Bucket): void {
  const findings = Object.entries(handlerFindings(bucket));
  for (const child of Stack.of(scope).node.children) {
    if (!child.node.id.startsWith("Custom::CDKBucketDeployment")) continue;
    for (const construct of child.node.findAll()) for (const [rule, reason] of findings) acknowledgeFinding(construct, rule, reason);
  }
}

/** One pack per process (its folder removed at exit): every stack a process synthesises deploys the same build. */
let packed: PackedSdk | undefined;

function packedSdk(): PackedSdk {
  if (packed === undefined) {
    const folder = mkdtempSync(join(tmpdir(), "agent-tools-sdk-asset-"));
    process.once("exit", () => rmSync(folder, { recursive: true, force: true }));
    packed = packSdkSync(CHECKOUT_SDK_DIR, folder);
  }
  return packed;
}
