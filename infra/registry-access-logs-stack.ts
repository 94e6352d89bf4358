import { Aws, RemovalPolicy, Stack, type StackProps } from "aws-cdk-lib";
import { CfnDelivery, CfnDeliveryDestination, CfnDeliverySource, LogGroup, type RetentionDays } from "aws-cdk-lib/aws-logs";
import type { Construct } from "constructs";

export interface RegistryAccessLogsStackProps extends StackProps {
  /** The registry stack's distribution, referenced across regions. */
  readonly distributionId: string;
  readonly retention: RetentionDays;
}

/**
 * CloudFront's access logs by standard logging v2: CloudWatch Logs delivers them (no S3 bucket
 * ACLs, as legacy logging needed) to a log group kept `logRetentionDays`. CloudFront is a global
 * service whose log delivery source, and so its delivery and destination, must be in us-east-1,
 * hence a stack of its own there (`cdnAccessLogs`, on in prod). CloudWatch Logs adds the log
 * group's resource policy for the delivery itself. Cost: docs/deployment.md#costs.
 */
export class RegistryAccessLogsStack extends Stack {
  readonly logGroup: LogGroup;

  constructor(scope: Construct, id: string, props: RegistryAccessLogsStackProps) {
    super(scope, id, props);
    this.logGroup = new LogGroup(this, "CloudFrontAccessLogs", { retention: props.retention, removalPolicy: RemovalPolicy.DESTROY });
    const source = new CfnDeliverySource(this, "DistributionSource", {
      name: `${id}-distribution`,
      logType: "ACCESS_LOGS",
      resourceArn: `arn:${Aws.PARTITION}:cloudfront::${Aws.ACCOUNT_ID}:distribution/${props.distributionId}`,
    });
    const destination = new CfnDeliveryDestination(this, "LogGroupDestination", {
      name: `${id}-log-group`,
      destinationResourceArn: this.logGroup.logGroupArn,
      outputFormat: "json",
    });
    const delivery = new CfnDelivery(this, "Delivery", { deliverySourceName: source.name, deliveryDestinationArn: destination.attrArn });
    delivery.addResourceDependency(source);
  }
}
