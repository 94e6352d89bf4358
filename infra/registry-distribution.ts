import { Annotations, Aws, Duration, Fn } from "aws-cdk-lib";
import type { HttpApi } from "aws-cdk-lib/aws-apigatewayv2";
import { Certificate } from "aws-cdk-lib/aws-certificatemanager";
import {
  AllowedMethods,
  CacheHeaderBehavior,
  CachePolicy,
  CacheQueryStringBehavior,
  type BehaviorOptions,
  Distribution,
  Function as CloudFrontFunction,
  FunctionCode,
  FunctionEventType,
  FunctionRuntime,
  HttpVersion,
  OriginProtocolPolicy,
  OriginRequestHeaderBehavior,
  OriginRequestPolicy,
  OriginRequestQueryStringBehavior,
  PriceClass,
  SecurityPolicyProtocol,
  ViewerProtocolPolicy,
} from "aws-cdk-lib/aws-cloudfront";
import { HttpOrigin, S3BucketOrigin } from "aws-cdk-lib/aws-cloudfront-origins";
import { PolicyStatement, ServicePrincipal } from "aws-cdk-lib/aws-iam";
import { Bucket } from "aws-cdk-lib/aws-s3";
import { Construct } from "constructs";
import { ORIGIN_VERIFY_HEADER } from "../functions/http/origin-secret.js";
import { ARCHIVES_PREFIX } from "../functions/storage/archive-store.js";
import { SDK_PACKAGE_PREFIX } from "../functions/storage/sdk-package-store.js";
import { acknowledgeFinding } from "./acknowledge-finding.js";
import { CACHE_KEY_HEADERS, ORIGIN_REQUEST_HEADERS } from "./edge-request-headers.js";
import type { ApiRoute } from "./registry-functions.js";
import { UPLOAD_SIZE_FUNCTION_CODE } from "./upload-size-function.js";

export interface RegistryDistributionProps {
  readonly api: HttpApi;
  readonly bucket: Bucket;
  /** Custom domain (`tools.example.com`) with its ACM certificate, which CloudFront needs in us-east-1. */
  readonly domain?: { readonly name: string; readonly certificateArn: string };
  /** ARN of a WAF web ACL (scope CLOUDFRONT, so created in us-east-1). */
  readonly webAclArn?: string;
  /** Routes that need a bearer token: their GETs get behaviours of their own that never cache. */
  readonly authenticatedRoutes: readonly ApiRoute[];
}

/**
 * CloudFront in front of the HTTP API. Costs nothing at idle (requests and bytes only), so it is on
 * by default; see docs/deployment.md for each choice.
 * - The API is the default origin; caching follows the registry's own `Cache-Control` (entries,
 *   listings and search for `s-maxage` seconds, then revalidated by ETag), keyed on `Authorization`
 *   and `Origin` so that CloudFront forwards the token and never serves one caller's answer to another.
 * - The authenticated GETs (`GET /tokens`, `GET /audit`) have behaviours of their own that never cache.
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
      originRequestPolicy: new OriginRequestPolicy(this, "ApiRequestHeaders", {
        comment: "Agent Tools registry: the viewer headers the API reads (infra/edge-request-headers.ts)",
        headerBehavior: OriginRequestHeaderBehavior.allowList(...ORIGIN_REQUEST_HEADERS.map((header) => header.name)),
        queryStringBehavior: OriginRequestQueryStringBehavior.all(),
      }),
      compress: true,
    };
    const cacheKey = {
      headerBehavior: CacheHeaderBehavior.allowList(...CACHE_KEY_HEADERS.map((header) => header.name)),
      queryStringBehavior: CacheQueryStringBehavior.all(),
      enableAcceptEncodingGzip: true,
      enableAcceptEncodingBrotli: true,
    };
    // The origin's Cache-Control decides (no-cache, s-maxage, immutable); without one nothing is kept.
    const fromOrigin = new CachePolicy(this, "ApiCaching", {
      comment: "Agent Tools registry: the API's own Cache-Control, keyed on token and CORS origin",
      minTtl: Duration.seconds(0),
      defaultTtl: Duration.seconds(0),
      maxTtl: Duration.days(365),
      ...cacheKey,
    });
    // At most a second even if an answer said otherwise (CloudFront forwards a header only to a policy that may cache).
    const neverCached = new CachePolicy(this, "AuthenticatedReads", {
      comment: "Agent Tools registry: admin reads, forwarded with their token and not cached",
      minTtl: Duration.seconds(0),
      defaultTtl: Duration.seconds(0),
      maxTtl: Duration.seconds(1),
      ...cacheKey,
    });
    const uploadSize = new CloudFrontFunction(this, "UploadSizeFunction", {
      code: FunctionCode.fromInline(UPLOAD_SIZE_FUNCTION_CODE),
      runtime: FunctionRuntime.JS_2_0,
      comment: "Agent Tools registry: JSON 413 for direct uploads over the Lambda event limit",
    });
    const fromBucket = {
      origin: bucketOrigin(this, props.bucket),
      viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
      allowedMethods: AllowedMethods.ALLOW_GET_HEAD,
      cachePolicy: CachePolicy.CACHING_OPTIMIZED,
      compress: false, // archives and tarballs are already compressed
    };
    const authenticatedReads: Record<string, BehaviorOptions> = {};
    for (const pattern of authenticatedReadPatterns(props.authenticatedRoutes))
      authenticatedReads[pattern] = { ...toApi, cachePolicy: neverCached };
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
      defaultBehavior: { ...toApi, cachePolicy: fromOrigin },
      additionalBehaviors: {
        ...authenticatedReads,
        "/tools/upload": {
          ...toApi,
          cachePolicy: neverCached,
          functionAssociations: [{ function: uploadSize, eventType: FunctionEventType.VIEWER_REQUEST }],
        },
        [`/${ARCHIVES_PREFIX}*`]: fromBucket,
        [`/${SDK_PACKAGE_PREFIX}*`]: fromBucket,
      },
    });
    // Origin access reaches `archives/` and `sdk/` only: snapshots, uploads and owner records stay private.
    props.bucket.addToResourcePolicy(
      new PolicyStatement({
        principals: [new ServicePrincipal("cloudfront.amazonaws.com")],
        actions: ["s3:GetObject"],
        resources: [props.bucket.arnForObjects(`${ARCHIVES_PREFIX}*`), props.bucket.arnForObjects(`${SDK_PACKAGE_PREFIX}*`)],
        conditions: {
          StringEquals: {
            "AWS:SourceArn": `arn:${Aws.PARTITION}:cloudfront::${Aws.ACCOUNT_ID}:distribution/${this.distribution.distributionId}`,
          },
        },
      }),
    );
    this.publicUrl = `https://${props.domain?.name ?? this.distribution.distributionDomainName}`;
    acknowledgeFinding(
      this.distribution,
      "AwsSolutions-CFR1",
      "A public registry of agent tools serves every country; an operator who must restrict them adds a geo restriction.",
    );
    acknowledgeFinding(
      this.distribution,
      "AwsSolutions-CFR3",
      "Standard logging needs an ACL-enabled log bucket (ours have ACLs disabled); requests that " +
        "reach the API are in its JSON access logs, edge hits are counted in CloudFront's metrics.",
    );
    if (!props.webAclArn) {
      acknowledgeFinding(
        this.distribution,
        "AwsSolutions-CFR2",
        "WAF costs about $6/month at idle, so it is opt-in (`-c waf=true` or `-c " +
          "webAclArn=…`); the functions' reserved and account concurrency bound a flood meanwhile.",
      );
    }
    if (!props.domain) {
      acknowledgeFinding(
        this.distribution,
        "AwsSolutions-CFR4",
        "The default *.cloudfront.net certificate fixes the TLS policy; with " +
          "a custom domain the distribution requires TLS 1.2 (TLSv1.2_2021).",
      );
    }
  }
}

/**
 * CloudFront path patterns of the authenticated GET routes (`{name}` → `*`). A GET that the default
 * behaviour cached would be kept for whoever asks next (`Authorization` is in its cache key, but an
 * answer that forgets `Cache-Control: no-store` must still never be reused).
 */
export function authenticatedReadPatterns(routes: readonly ApiRoute[]): string[] {
  const patterns = routes
    .filter((route) => route.authenticated && route.methods.some((method) => method === "GET" || method === "HEAD"))
    .map((route) => route.path.replace(/\{[^}]+\}/g, "*"));
  return [...new Set(patterns)];
}

/**
 * The bucket as a CloudFront origin through origin access control, without the bucket policy CDK
 * would add for it (every object, `bucket/*`): the stack grants `archives/*` and `sdk/*` alone instead.
 */
function bucketOrigin(scope: Construct, bucket: Bucket) {
  const asImported = Bucket.fromBucketAttributes(scope, "ArchivesOrigin", {
    bucketArn: bucket.bucketArn,
    bucketName: bucket.bucketName,
    bucketRegionalDomainName: bucket.bucketRegionalDomainName,
  });
  Annotations.of(scope).acknowledgeWarning(
    "@aws-cdk/aws-cloudfront-origins:updateImportedBucketPolicyOac",
    "The stack adds its own statement for archives/* and sdk/* (RegistryDistribution).",
  );
  return S3BucketOrigin.withOriginAccessControl(asImported);
}
