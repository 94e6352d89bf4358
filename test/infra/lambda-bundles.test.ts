/**
 * The stack bundled for real with the local esbuild (no Docker): each function's asset is one
 * minified ESM file that leaves the AWS SDK to the runtime, runs, and — for upload, whose bundle
 * holds every write path — calls only AWS APIs its role allows.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { App } from "aws-cdk-lib";
import { Template } from "aws-cdk-lib/assertions";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LAMBDA_BUNDLE, PROJECT_ROOT } from "../../infra/lambda-bundling.js";
import { createRegistryApp } from "../../infra/registry-app.js";
import { apiGatewayEvent } from "../support/api-gateway-event.js";
import { functionLogicalId, functionRole, type FunctionName, type TemplateResources } from "./synth-stack.js";

const NAMES: FunctionName[] = ["Upload", "Fetch", "Search"];

/** IAM action behind each AWS SDK command the functions may import. */
const ACTION_OF_COMMAND: Record<string, string> = {
  GetCommand: "dynamodb:GetItem",
  PutCommand: "dynamodb:PutItem",
  UpdateCommand: "dynamodb:UpdateItem",
  DeleteCommand: "dynamodb:DeleteItem",
  QueryCommand: "dynamodb:Query",
  ScanCommand: "dynamodb:Scan",
  BatchWriteCommand: "dynamodb:BatchWriteItem",
  BatchGetCommand: "dynamodb:BatchGetItem",
  GetObjectCommand: "s3:GetObject",
  HeadObjectCommand: "s3:GetObject",
  PutObjectCommand: "s3:PutObject",
  DeleteObjectCommand: "s3:DeleteObject",
  ListObjectsV2Command: "s3:ListBucket",
  GetSecretValueCommand: "secretsmanager:GetSecretValue",
};

let outdir: string;
const bundles = {} as Record<FunctionName, { file: string; code: string }>;
let uploadActions: Set<string>;

beforeAll(() => {
  // Inside the project, so the bundles' bare `@aws-sdk/*` imports resolve as the Lambda runtime would.
  const cacheDir = join(PROJECT_ROOT, "node_modules", ".cache");
  mkdirSync(cacheDir, { recursive: true });
  outdir = mkdtempSync(join(cacheDir, "agent-tools-cdk-"));
  // Template rules are checked in registry-stack.test.ts; here only the bundles matter.
  const validation = process.env.CDK_VALIDATION;
  process.env.CDK_VALIDATION = "false";
  const { stack } = createRegistryApp(new App({ outdir }));
  const template = Template.fromStack(stack);
  if (validation === undefined) delete process.env.CDK_VALIDATION;
  else process.env.CDK_VALIDATION = validation;
  const resources = template.toJSON().Resources as TemplateResources;
  uploadActions = functionRole(resources, "Upload").actions;
  for (const name of NAMES) {
    const assetHash = (resources[functionLogicalId(resources, name)]!.Properties.Code.S3Key as string).replace(/\.zip$/, "");
    const file = join(outdir, `asset.${assetHash}`, "index.mjs");
    bundles[name] = { file, code: readFileSync(file, "utf8") };
  }
}, 120_000);

afterAll(() => {
  if (outdir) rmSync(outdir, { recursive: true, force: true });
});

/** Named imports from `@aws-sdk/*` packages in a bundle (minified: `import{A as b,C}from"@aws-sdk/x"`). */
function awsSdkImports(code: string): { packages: Set<string>; names: Set<string> } {
  const packages = new Set<string>();
  const names = new Set<string>();
  for (const match of code.matchAll(/import\s*\{([^}]*)\}\s*from\s*["'](@aws-sdk\/[^"']+)["']/g)) {
    packages.add(match[2]!);
    for (const part of match[1]!.split(",")) names.add(part.trim().split(/\s+as\s+/)[0]!);
  }
  return { packages, names };
}

describe("Lambda bundles", () => {
  it("are minified ESM with the createRequire banner, AWS SDK left external", () => {
    for (const name of NAMES) {
      const { code } = bundles[name];
      expect(code.startsWith(LAMBDA_BUNDLE.banner), name).toBe(true);
      expect(LAMBDA_BUNDLE.banner).toContain("const require = ");
      // Minified: long lines. (Counting lines fails on libraries whose template literals hold newlines, such as yaml's.)
      expect(code.length / code.split("\n").length, name).toBeGreaterThan(1000);
      expect(awsSdkImports(code).packages.has("@aws-sdk/client-s3"), name).toBe(true);
      expect(code, name).not.toContain("S3ServiceException extends"); // SDK code not inlined
      expect(Buffer.byteLength(code), name).toBeLessThan(1024 * 1024);
    }
    // Only upload reads the token secret, so only its bundle imports the Secrets Manager client.
    expect(awsSdkImports(bundles.Upload.code).packages.has("@aws-sdk/client-secrets-manager")).toBe(true);
    expect(awsSdkImports(bundles.Fetch.code).packages.has("@aws-sdk/client-secrets-manager")).toBe(false);
    expect(awsSdkImports(bundles.Search.code).packages.has("@aws-sdk/client-secrets-manager")).toBe(false);
  });

  it("upload calls only AWS APIs its role grants", () => {
    const commands = [...awsSdkImports(bundles.Upload.code).names].filter((name) => name.endsWith("Command"));
    expect(commands.length).toBeGreaterThan(5);
    for (const command of commands) {
      const action = ACTION_OF_COMMAND[command];
      expect(action, `${command} has no IAM mapping: add it to ACTION_OF_COMMAND and grant it in infra/function-permissions.ts`).toBeDefined();
      expect(uploadActions.has(action!), `${command} needs ${action}, which the upload role lacks`).toBe(true);
    }
  });

  it("load and answer requests from the bundled file", async () => {
    const saved = { ...process.env };
    Object.assign(process.env, { AWS_REGION: "eu-west-1", TABLE_NAME: "t-bundle", BUCKET_NAME: "b-bundle", REGISTRY_TOKEN_SHA256: "0".repeat(64) });
    try {
      for (const name of NAMES) {
        const { handler } = (await import(pathToFileURL(bundles[name].file).href)) as { handler: (event: unknown) => Promise<{ statusCode: number; body: string }> };
        const health = await handler(apiGatewayEvent({ method: "GET", url: "/health" }));
        const expected = name === "Fetch" ? 200 : 404; // /health belongs to the fetch group
        expect(health.statusCode, name).toBe(expected);
        expect(JSON.parse(health.body), name).toEqual(name === "Fetch" ? { status: "ok" } : expect.objectContaining({ error: "Not found" }));
      }
    } finally {
      process.env = saved;
    }
  });
});
