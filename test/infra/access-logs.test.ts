// CloudFront access logs by standard logging v2 (docs/deployment.md#cloudfront-custom-domain-and-waf):
// a delivery source for the distribution, a log group destination and the delivery, all in a us-east-1
// stack of their own; on in prod, off elsewhere unless asked; no legacy logging (no bucket ACLs).
import type { Stack } from "aws-cdk-lib";
import { Match, Template } from "aws-cdk-lib/assertions";
import { describe, expect, it } from "vitest";
import { synthStack, type TemplateResources } from "./synth-stack.js";

const alarmed = { alarmEmail: "ops@example.com" };
/** Each synthesis builds the registry stack and the us-east-1 ones: seconds each, more on a loaded machine. */
const SYNTH_TIMEOUT_MS = 120_000;

function accessLogsStack(synth: ReturnType<typeof synthStack>): Stack | undefined {
  return synth.stack.node.root.node.tryFindChild(`${synth.stack.stackName}-access-logs`) as Stack | undefined;
}

describe("CloudFront access logs", () => {
  it(
    "are on in prod: a us-east-1 stack delivers the distribution's access logs to a log group kept logRetentionDays",
    () => {
      const prod = synthStack({ stage: "prod", logRetentionDays: "60", ...alarmed });
      try {
        const logs = accessLogsStack(prod)!;
        expect(logs.region).toBe("us-east-1");
        expect(logs.terminationProtection).toBe(true);
        const template = Template.fromStack(logs);
        template.hasResourceProperties("AWS::Logs::LogGroup", { RetentionInDays: 60 });
        const resources = template.toJSON().Resources as TemplateResources;
        const [sourceId, source] = Object.entries(resources).find(([, resource]) => resource.Type === "AWS::Logs::DeliverySource")!;
        expect(source.Properties.LogType).toBe("ACCESS_LOGS");
        // The distribution's ARN, its id read across regions from the registry stack.
        expect(JSON.stringify(source.Properties.ResourceArn)).toMatch(/cloudfront::.*distribution\//);
        expect(JSON.stringify(source.Properties.ResourceArn)).toContain("/cdk/exports/");
        const [destinationId, destination] = Object.entries(resources).find(
          ([, resource]) => resource.Type === "AWS::Logs::DeliveryDestination",
        )!;
        const [groupId] = Object.entries(resources).find(([, resource]) => resource.Type === "AWS::Logs::LogGroup")!;
        expect(destination.Properties.DestinationResourceArn).toEqual({ "Fn::GetAtt": [groupId, "Arn"] });
        template.hasResource("AWS::Logs::Delivery", {
          Properties: { DeliverySourceName: source.Properties.Name, DeliveryDestinationArn: { "Fn::GetAtt": [destinationId, "Arn"] } },
          DependsOn: Match.arrayWith([sourceId]),
        });
        // No legacy logging on the distribution: it would need an S3 bucket with ACLs enabled.
        const config = Object.values(prod.template.findResources("AWS::CloudFront::Distribution"))[0]!.Properties.DistributionConfig;
        expect(config.Logging).toBeUndefined();
      } finally {
        prod.cleanup();
      }
    },
    SYNTH_TIMEOUT_MS,
  );

  it(
    "are off elsewhere unless asked for, and need the distribution",
    () => {
      const dev = synthStack({});
      const asked = synthStack({ cdnAccessLogs: "true" });
      const declined = synthStack({ stage: "prod", cdnAccessLogs: "false", ...alarmed });
      try {
        expect(accessLogsStack(dev)).toBeUndefined();
        expect(accessLogsStack(asked)?.region).toBe("us-east-1");
        expect(accessLogsStack(declined)).toBeUndefined();
      } finally {
        for (const synth of [dev, asked, declined]) synth.cleanup();
      }
      expect(() => synthStack({ cdn: "false", cdnAccessLogs: "true" })).toThrow(/cdnAccessLogs=true needs the CloudFront distribution/);
      expect(() => synthStack({ cdnAccessLogs: "maybe" })).toThrow(/"cdnAccessLogs" must be true or false/);
    },
    SYNTH_TIMEOUT_MS,
  );

  it(
    "say what to set when the registry's region is not known at synth",
    () => {
      expect(() => synthStack({ stage: "prod", ...alarmed }, { region: null })).toThrow(/set AWS_REGION .* or give -c cdnAccessLogs=false/);
    },
    SYNTH_TIMEOUT_MS,
  );
});
