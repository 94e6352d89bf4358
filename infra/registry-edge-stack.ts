import { Stack, type StackProps } from "aws-cdk-lib";
import { CfnWebACL } from "aws-cdk-lib/aws-wafv2";
import type { Construct } from "constructs";

export interface RegistryEdgeStackProps extends StackProps {
  /** Requests per 5 minutes one client IP may send before it is blocked for a while. */
  readonly rateLimit: number;
}

/**
 * The WAF web ACL in front of the distribution. CloudFront's web ACLs live in us-east-1 whatever
 * the registry's region, hence a stack of its own (`-c waf=true`); the registry stack reads its
 * ARN through a cross-region reference. About $6/month at idle (ACL + rule), so off by default.
 */
export class RegistryEdgeStack extends Stack {
  readonly webAclArn: string;

  constructor(scope: Construct, id: string, props: RegistryEdgeStackProps) {
    super(scope, id, props);
    const visibility = (metricName: string) => ({ cloudWatchMetricsEnabled: true, metricName, sampledRequestsEnabled: true });
    const acl = new CfnWebACL(this, "WebAcl", {
      scope: "CLOUDFRONT",
      defaultAction: { allow: {} },
      visibilityConfig: visibility(`${id}-web-acl`),
      rules: [
        {
          name: "rate-per-ip",
          priority: 0,
          action: { block: {} },
          statement: { rateBasedStatement: { limit: props.rateLimit, evaluationWindowSec: 300, aggregateKeyType: "IP" } },
          visibilityConfig: visibility(`${id}-rate-per-ip`),
        },
      ],
    });
    this.webAclArn = acl.attrArn;
  }
}
