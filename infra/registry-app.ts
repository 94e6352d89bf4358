import { App } from "aws-cdk-lib";
import { RegistryStack } from "./registry-stack.js";
import { settingsFromContext } from "./registry-settings.js";

/**
 * The CDK app: one environment-agnostic stack (no account lookups, so synth needs no credentials),
 * named by context `stackName` and configured by context (`cdk.json` or `-c key=value`).
 */
export function createRegistryApp(app = new App()): { app: App; stack: RegistryStack } {
  const stackName = (app.node.tryGetContext("stackName") as string | undefined) ?? "AgentToolsRegistry";
  const stack = new RegistryStack(app, stackName, {
    settings: settingsFromContext(app.node),
    description: "Agent Tools registry: HTTP API, Lambda (upload, fetch, search), S3 archives, DynamoDB entries",
  });
  return { app, stack };
}
