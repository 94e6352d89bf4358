/**
 * The stack bundled for real with the local esbuild (no Docker): each function's asset is one
 * minified ESM file with the pinned AWS SDK inside (nothing left to the runtime's copy), runs, and
 * sends only AWS commands its role allows.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { App } from "aws-cdk-lib";
import { Template } from "aws-cdk-lib/assertions";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { build } from "esbuild";
import { LAMBDA_BUNDLE, PROJECT_ROOT, lambdaEntry } from "../../infra/lambda-bundling.js";
import { createRegistryApp } from "../../infra/registry-app.js";
import { apiGatewayEvent } from "../support/api-gateway-event.js";
import { FUNCTION_NAMES as NAMES, functionLogicalId, functionRole, type FunctionName, type TemplateResources } from "./synth-stack.js";

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
const bundles = new Map<FunctionName, { file: string; code: string }>();
const bundle = (name: FunctionName) => bundles.get(name)!;
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
    bundles.set(name, { file, code: readFileSync(file, "utf8") });
  }
}, 120_000);

afterAll(() => {
  if (outdir) rmSync(outdir, { recursive: true, force: true });
});

/** Bare imports left in a bundle (minified: `import{A as b}from"x"`, `import"x"`, `import("x")`), node builtins aside. */
function packageImports(code: string): string[] {
  // Minified code has no space before the specifier, which keeps error messages quoting `import "x"` out;
  // a specifier starts as a package name or path does, which keeps `"missing from":"…"` out.
  const specifiers = [...code.matchAll(/(?:from|import\(|import)"([@.\w][^"]*)"/g)].map((match) => match[1]!);
  return [...new Set(specifiers.filter((specifier) => !specifier.startsWith("node:") && !/^[a-z_]+$/.test(specifier)))];
}

/**
 * AWS SDK commands the function's own code imports: the entry built again with the SDK external,
 * so the named imports show (the deployed bundle inlines the SDK, whose document client defines
 * every DynamoDB command whether sent or not).
 */
async function importedCommands(name: FunctionName): Promise<string[]> {
  const result = await build({
    entryPoints: [lambdaEntry(name.toLowerCase())],
    bundle: true,
    write: false,
    format: LAMBDA_BUNDLE.format,
    platform: LAMBDA_BUNDLE.platform,
    target: LAMBDA_BUNDLE.target,
    external: ["@aws-sdk/*"],
    logLevel: "silent",
  });
  const code = result.outputFiles[0]!.text;
  const names = [...code.matchAll(/import\s*\{([^}]*)\}\s*from\s*["']@aws-sdk\/[^"']+["']/g)].flatMap((match) =>
    match[1]!.split(",").map((part) => part.trim().split(/\s+as\s+/)[0]!),
  );
  return [...new Set(names.filter((imported) => imported.endsWith("Command")))];
}

describe("Lambda bundles", () => {
  it("are minified ESM with the createRequire banner and the AWS SDK inside", () => {
    for (const name of NAMES) {
      const { code } = bundle(name);
      expect(code.startsWith(LAMBDA_BUNDLE.banner), name).toBe(true);
      expect(LAMBDA_BUNDLE.banner).toContain("const require = ");
      // Minified: long lines. (Counting lines fails on libraries whose template literals hold newlines, such as yaml's.)
      expect(code.length / code.split("\n").length, name).toBeGreaterThan(1000);
      expect(packageImports(code), name).toEqual([]); // nothing resolved from the runtime's node_modules
      expect(code, name).toContain("DynamoDBServiceException"); // the SDK is inlined
      expect(Buffer.byteLength(code), name).toBeLessThan(1536 * 1024);
    }
    // Tree-shaking keeps each client where it is used: S3 in search only to read the index snapshot
    // (docs/search.md), Secrets Manager only where the write token or the cursor key is read.
    expect(bundle("Search").code).toContain("S3ServiceException");
    expect(bundle("Fetch").code).toContain("S3ServiceException");
    const secretReaders: FunctionName[] = ["Upload", "Fetch", "Search"];
    for (const name of NAMES) expect(bundle(name).code.includes("SecretsManagerServiceException"), name).toBe(secretReaders.includes(name));
  });

  // Upload's bundle holds every write path; the readers' bundles hold the same store classes, whose
  // write methods their routes never call (their roles are read-only: registry-stack.test.ts).
  it("upload imports only AWS commands its role grants", async () => {
    const commands = await importedCommands("Upload");
    expect(commands.length).toBeGreaterThan(5);
    for (const command of commands) {
      const action = ACTION_OF_COMMAND[command];
      expect(
        action,
        `${command} has no IAM mapping: add it to ACTION_OF_COMMAND and grant it in infra/registry-functions.ts`,
      ).toBeDefined();
      expect(uploadActions.has(action!), `${command} needs ${action}, which the upload role lacks`).toBe(true);
    }
  });

  it("load and answer requests from the bundled file", async () => {
    const saved = { ...process.env };
    Object.assign(process.env, {
      AWS_REGION: "eu-west-1",
      TABLE_NAME: "t-bundle",
      BUCKET_NAME: "b-bundle",
      REGISTRY_TOKEN_SHA256: "0".repeat(64),
    });
    try {
      // The API's functions; the sweeper and the indexer answer their schedules only (registry-stack.test.ts).
      for (const name of NAMES.filter((name) => name !== "Sweeper" && name !== "Indexer")) {
        const { handler } = (await import(pathToFileURL(bundle(name).file).href)) as {
          handler: (event: unknown) => Promise<{ statusCode: number; body: string }>;
        };
        const health = await handler(apiGatewayEvent({ method: "GET", url: "/health" }));
        const expected = name === "Fetch" ? 200 : 404; // /health belongs to the fetch group
        expect(health.statusCode, name).toBe(expected);
        expect(JSON.parse(health.body), name).toEqual(
          name === "Fetch" ? { status: "ok" } : expect.objectContaining({ error: "Not found" }),
        );
      }
    } finally {
      process.env = saved;
    }
  });
});
