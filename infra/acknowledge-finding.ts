import { Validations } from "aws-cdk-lib";
import type { IConstruct } from "constructs";

/**
 * Records, on the construct it concerns, why a cdk-nag AwsSolutions finding does not apply
 * (`AwsSolutions-IAM5[Resource::…]` for one finding of a rule). test/infra/cdk-nag.test.ts
 * runs the checks: every finding is fixed or acknowledged here with its reason.
 */
export function acknowledgeFinding(scope: IConstruct, rule: string, reason: string): void {
  Validations.of(scope).acknowledge({ id: `AwsSolutions::${rule}`, reason });
}
