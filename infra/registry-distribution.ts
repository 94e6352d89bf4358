import { Aws, Fn } from "aws-cdk-lib";
import type { HttpApi } from "aws-cdk-lib/aws-apigatewayv2";
import { Certificate } from "aws-cdk-lib/aws-certificatemanager";
import {
  AllowedMethods,
  CachePolicy,
  Distribution,
  Function as CloudFrontFunction,
  FunctionCode,
  FunctionEventType,
  FunctionRuntime,
  HttpVersion,
  OriginProtocolPolicy,
  OriginRequestPolicy,
  PriceClass,
  SecurityPolicyProtocol,
  ViewerProtocolPolicy,
} from "aws-cdk-lib/aws-cloudfront";
import { HttpOrigin, S3BucketOrigin } from "aws-cdk-lib/aws-cloudfront-origins";
import type { Bucket } from "aws-cdk-lib/aws-s3";
import { Construct } from "constructs";
import { ORIGIN_VERIFY_HEADER } from "../functions/lambda/origin-verify.js";
import { ARCHIVES_PREFIX } from "../functions/storage/archive-store.js";
import { SDK_PACKAGE_PREFIX } from "../functions/storage/sdk-package-store.js";
import { acknowledgeFinding } from "./acknowledge-finding.js";
import { UPLOAD_SIZE_FUNCTION_CODE } from "./upload-size-function.js";

export interface RegistryDistributionProps {
  readonly api: HttpApi;
  readonly bucket: Bucket;
  /** Custom domain (`tools.example.com`) with its ACM certificate, which CloudFront needs in us-east-1. */
  readonly domain?: { readonly name: string; readonly certificateArn: string };
  /** ARN of a WAF web ACL (scope CLOUDFRONT, so created in us-east-1). */
  readonly webAclArn?: string;
}

/**
 * CloudFront in front of the HTTP API. Costs nothing at idle (requests and bytes only), so it is on
 * by default; see docs/deployment.md for each choice.
 * - The API is the default origin; caching follows the registry's own `Cache-Control`: versioned
 *   entries and their archive redirects are `immutable` (cached up to a year at the edge), latest
 *   entries, listings and search are not cached.
 * - `/archives/<sha256>` is served from the bucket through origin access control: content-addressed
 *   bytes, cached at the edge; the fetch function redirects archive URLs there (`ARCHIVE_DELIVERY=cdn`).
 * - `/sdk/<file>`, the SDK tarball the stack uploads, is served from the bucket the same way, cached
 *   as its objects' `Cache-Control` says (minutes) and invalidated by each deployment.
 * - Every request to the API carries a secret header that the functions require, so the
 *   `execute-api` endpoint answers 403 to anyone else and the edge (cache, WAF) cannot be bypassed.
 * - `POST /tools/upload` over the direct-upload cap gets the registry's JSON 413 at the edge.
 */
export class RegistryDistribution extends Construct {
  readonly distribution: Distribution;
  /** The origin clients use: the custom domain, else the distribution's own. */
  readonly publicUrl: string;
  /** Value of the origin-verify header: the stack id's UUID, unguessable and free (no secret to store). */
  readonly originSecret: string;

  constructor(scope: Construct, id: string, props: RegistryDistributionProps) {
    super(scope, id);
    this.originSecret = Fn.select(2, Fn.split("/", Aws.STACK_ID));
    const apiDomain = Fn.select(2, Fn.split("/", props.api.apiEndpoint));
    const apiOrigin = new HttpOrigin(apiDomain, {
      protocolPolicy: OriginProtocolPolicy.HTTPS_ONLY,
      customHeaders: { [ORIGIN_VERIFY_HEADER]: this.originSecret },
    });
    const toApi = {
      origin: apiOrigin,
      viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
      allowedMethods: AllowedMethods.ALLOW_ALL,
      // Everything but Host (which must name the execute-api domain), so Authorization reaches writes.
      originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
      compress: true,
    };
    const uploadSize = new CloudFrontFunction(this, "UploadSizeFunction", {
      code: FunctionCode.fromInline(UPLOAD_SIZE_FUNCTION_CODE),
      runtime: FunctionRuntime.JS_2_0,
      comment: "Agent Tools registry: JSON 413 for direct uploads over the Lambda event limit",
    });
    const fromBucket = {
      origin: S3BucketOrigin.withOriginAccessControl(props.bucket),
      viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
      allowedMethods: AllowedMethods.ALLOW_GET_HEAD,
      cachePolicy: CachePolicy.CACHING_OPTIMIZED,
      compress: false, // archives and tarballs are already compressed
    };
    this.distribution = new Distribution(this, "Distribution", {
      comment: "Agent Tools registry",
      httpVersion: HttpVersion.HTTP2_AND_3,
      // North America and Europe only: the cheapest class; other viewers are served from there.
      priceClass: PriceClass.PRICE_CLASS_100,
      // The TLS policy can be chosen only with an own certificate (the default one is fixed by CloudFront).
      ...(props.domain
        ? {
            domainNames: [props.domain.name],
            certificate: Certificate.fromCertificateArn(this, "Certificate", props.domain.certificateArn),
            minimumProtocolVersion: SecurityPolicyProtocol.TLS_V1_2_2021,
          }
        : {}),
      ...(props.webAclArn ? { webAclId: props.webAclArn } : {}),
      defaultBehavior: { ...toApi, cachePolicy: CachePolicy.USE_ORIGIN_CACHE_CONTROL_HEADERS_QUERY_STRINGS },
      additionalBehaviors: {
        "/tools/upload": {
          ...toApi,
          cachePolicy: CachePolicy.CACHING_DISABLED,
          functionAssociations: [{ function: uploadSize, eventType: FunctionEventType.VIEWER_REQUEST }],
        },
        [`/${ARCHIVES_PREFIX}*`]: fromBucket,
        [`/${SDK_PACKAGE_PREFIX}*`]: fromBucket,
      },
    });
    this.publicUrl = `https://${props.domain?.name ?? this.distribution.distributionDomainName}`;
    acknowledgeFinding(
      this.distribution,
      "AwsSolutions-CFR1",
      "A public registry of agent tools serves every country; an operator who must restrict them adds a geo restriction.",
    );
    acknowledgeFinding(
      this.distribution,
      "AwsSolutions-CFR3",
      "Standard logging needs an ACL-enabled log bucket (ours have ACLs disabled); requests that reach the API are in its JSON access logs, edge hits are counted in CloudFront's metrics.",
    );
    if (!props.webAclArn) {
      acknowledgeFinding(
        this.distribution,
        "AwsSolutions-CFR2",
        "WAF costs about $6/month at idle, so it is opt-in (`-c waf=true` or `-c webAclArn=…`); the functions' reserved and account concurrency bound a flood meanwhile.",
      );
    }
    if (!props.domain) {
      acknowledgeFinding(
        this.distribution,
        "AwsSolutions-CFR4",
        "The default *.cloudfront.net certificate fixes the TLS policy; with a custom domain the distribution requires TLS 1.2 (TLSv1.2_2021).",
      );
    }
  }
}
