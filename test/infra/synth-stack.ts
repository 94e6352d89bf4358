/**
 * Synthesises the registry stack for template assertions into a temp folder (no `cdk.out`
 * leftovers). Bundling is skipped unless asked for: the template is the same either way.
 */
import { App } from "aws-cdk-lib";
import { Template } from "aws-cdk-lib/assertions";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createRegistryApp } from "../../infra/registry-app.js";
import { functionConstructId, REGISTRY_FUNCTIONS } from "../../infra/registry-functions.js";
import type { RegistryStack } from "../../infra/registry-stack.js";

export interface SynthesizedStack {
  stack: RegistryStack;
  template: Template;
  outdir: string;
  /** Removes the synthesis folder. */
  cleanup(): void;
}

/**
 * `region`: the registry's `AWS_REGION` while the app is built (the prod stage's access-log stack, and WAF, reference the
 * registry stack from us-east-1, which needs it); `null` builds with none set.
 */
export function synthStack(
  context: Record<string, unknown> = {},
  options: { bundle?: boolean; region?: string | null } = {},
): SynthesizedStack {
  const outdir = mkdtempSync(join(tmpdir(), "agent-tools-cdk-"));
  try {
    const app = new App({ outdir, context: { ...(options.bundle ? {} : { "aws:cdk:bundling-stacks": [] }), ...context } });
    const { stack } = inRegion(options.region === undefined ? "eu-west-1" : options.region, () => createRegistryApp(app));
    return { stack, template: Template.fromStack(stack), outdir, cleanup: () => rmSync(outdir, { recursive: true, force: true }) };
  } catch (error) {
    rmSync(outdir, { recursive: true, force: true });
    throw error;
  }
}

/** `build()` with `AWS_REGION` set to `region` (unset for null), as it was afterwards. */
export function inRegion<T>(region: string | null, build: () => T): T {
  const saved = process.env.AWS_REGION;
  if (region === null) delete process.env.AWS_REGION;
  else process.env.AWS_REGION = region;
  try {
    return build();
  } finally {
    if (saved === undefined) delete process.env.AWS_REGION;
    else process.env.AWS_REGION = saved;
  }
}

export type TemplateResources = Record<
  string,
  { Type: string; Properties: Record<string, any>; DeletionPolicy?: string; UpdateReplacePolicy?: string; DependsOn?: string[] }
>;
/** Construct ids of the stack's functions (`Upload`, `Fetch`, …), from the one list the stack uses. */
export type FunctionName = string;
export const FUNCTION_NAMES: readonly FunctionName[] = REGISTRY_FUNCTIONS.map((definition) => functionConstructId(definition.name));

export interface PolicyStatementJson {
  Effect: string;
  Action: string | string[];
  Resource: unknown;
  Condition?: unknown;
}

/**
 * The template's functions of REGISTRY_FUNCTIONS, by logical id, leaving out the one CDK adds to
 * deploy the SDK package (its BucketDeployment's handler, `CustomCDKBucketDeployment…`).
 */
export function registryFunctions(resources: TemplateResources): TemplateResources {
  return Object.fromEntries(
    Object.entries(resources).filter(
      ([id, resource]) => resource.Type === "AWS::Lambda::Function" && FUNCTION_NAMES.some((name) => id.startsWith(`${name}Function`)),
    ),
  );
}

/** Logical id of the function created under the `Upload`, `Fetch` or `Search` construct. */
export function functionLogicalId(resources: TemplateResources, name: FunctionName): string {
  const ids = Object.keys(resources).filter((id) => resources[id]!.Type === "AWS::Lambda::Function" && id.startsWith(`${name}Function`));
  if (ids.length !== 1) throw new Error(`expected one ${name} function, found ${ids.length}`);
  return ids[0]!;
}

/** The function's role, and every statement of every policy attached to it. */
export function functionRole(resources: TemplateResources, name: FunctionName) {
  const roleId = resources[functionLogicalId(resources, name)]!.Properties.Role["Fn::GetAtt"][0] as string;
  const statements: PolicyStatementJson[] = Object.values(resources)
    .filter((resource) => resource.Type === "AWS::IAM::Policy")
    .filter((policy) => (policy.Properties.Roles as { Ref: string }[]).some((role) => role.Ref === roleId))
    .flatMap((policy) => policy.Properties.PolicyDocument.Statement as PolicyStatementJson[]);
  return { role: resources[roleId]!, statements, actions: new Set(statements.flatMap((statement) => [statement.Action].flat())) };
}
