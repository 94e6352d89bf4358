import { Match } from "aws-cdk-lib/assertions";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ARCHIVE_INDEX, LATEST_INDEX, TABLE_KEYS } from "../../functions/storage/table-schema.js";
import { REGISTRY_FUNCTIONS } from "../../infra/registry-functions.js";
import { FUNCTION_NAMES, functionLogicalId, functionRole, synthStack, type FunctionName, type SynthesizedStack, type TemplateResources as Resources } from "./synth-stack.js";

let synth: SynthesizedStack;
let resources: Resources;

beforeAll(() => {
  synth = synthStack();
  resources = synth.template.toJSON().Resources as Resources;
});
afterAll(() => synth.cleanup());

const ofType = (type: string) => Object.entries(resources).filter(([, resource]) => resource.Type === type);
const onlyOne = (type: string) => {
  const found = ofType(type);
  expect(found, type).toHaveLength(1);
  return found[0]!;
};

/** The one resource of this type whose logical id starts with `prefix` (construct path, e.g. `StorageArchives`). */
const named = (type: string, prefix: string) => {
  const found = ofType(type).filter(([id]) => id.startsWith(prefix));
  expect(found, `${type} ${prefix}`).toHaveLength(1);
  return found[0]!;
};
const archiveBucket = () => named("AWS::S3::Bucket", "StorageArchives");

const functionId = (name: FunctionName) => functionLogicalId(resources, name);
const roleOf = (name: FunctionName) => functionRole(resources, name);
const json = (value: unknown) => JSON.stringify(value);

describe("archive bucket", () => {
  it("blocks all public access, requires TLS, encrypts with S3-managed keys and is retained", () => {
    const [id, bucket] = archiveBucket();
    expect(bucket.Properties.PublicAccessBlockConfiguration).toEqual({
      BlockPublicAcls: true,
      BlockPublicPolicy: true,
      IgnorePublicAcls: true,
      RestrictPublicBuckets: true,
    });
    expect(bucket.Properties.BucketEncryption.ServerSideEncryptionConfiguration).toEqual([
      { ServerSideEncryptionByDefault: { SSEAlgorithm: "AES256" } },
    ]);
    expect(bucket.Properties.OwnershipControls.Rules).toEqual([{ ObjectOwnership: "BucketOwnerEnforced" }]);
    expect(bucket.DeletionPolicy).toBe("Retain");
    expect(bucket.UpdateReplacePolicy).toBe("Retain");

    const [, policy] = named("AWS::S3::BucketPolicy", "StorageArchivesPolicy");
    expect(policy.Properties.Bucket).toEqual({ Ref: id });
    expect(policy.Properties.PolicyDocument.Statement).toContainEqual(
      expect.objectContaining({ Effect: "Deny", Action: "s3:*", Condition: { Bool: { "aws:SecureTransport": "false" } } }),
    );
  });

  it("expires incoming uploads after a day and aborts incomplete multipart uploads", () => {
    const [, bucket] = archiveBucket();
    const rules = bucket.Properties.LifecycleConfiguration.Rules as Record<string, unknown>[];
    expect(rules).toContainEqual(expect.objectContaining({ Prefix: "uploads/", ExpirationInDays: 1, NoncurrentVersionExpiration: { NoncurrentDays: 1 }, Status: "Enabled" }));
    expect(rules).toContainEqual(expect.objectContaining({ AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 }, Status: "Enabled" }));
    // No rule may ever expire published archives.
    for (const rule of rules) if ("ExpirationInDays" in rule) expect(rule.Prefix).toBe("uploads/");
  });

  it("is versioned, keeping replaced and deleted versions for the 35 days point-in-time recovery reaches back", () => {
    const [, bucket] = archiveBucket();
    expect(bucket.Properties.VersioningConfiguration).toEqual({ Status: "Enabled" });
    const rules = bucket.Properties.LifecycleConfiguration.Rules as Record<string, unknown>[];
    expect(rules).toContainEqual({ Id: "expire-noncurrent-versions", NoncurrentVersionExpiration: { NoncurrentDays: 35 }, ExpiredObjectDeleteMarker: true, Status: "Enabled" });
  });

  it("writes server access logs to a private, TLS-only, retained log bucket that expires them", () => {
    const [, bucket] = archiveBucket();
    const [logsId, logs] = named("AWS::S3::Bucket", "StorageAccessLogs");
    expect(bucket.Properties.LoggingConfiguration).toEqual({ DestinationBucketName: { Ref: logsId }, LogFilePrefix: "archives-bucket/" });
    expect(logs.Properties.PublicAccessBlockConfiguration).toEqual(bucket.Properties.PublicAccessBlockConfiguration);
    expect(logs.Properties.BucketEncryption).toEqual(bucket.Properties.BucketEncryption);
    expect(logs.Properties.OwnershipControls.Rules).toEqual([{ ObjectOwnership: "BucketOwnerEnforced" }]);
    expect(logs.Properties.AccessControl).toBeUndefined();
    expect(logs.DeletionPolicy).toBe("Retain");
    expect(logs.Properties.LifecycleConfiguration.Rules).toEqual([{ Id: "expire-access-logs", ExpirationInDays: 30, Status: "Enabled" }]);
    const [, policy] = named("AWS::S3::BucketPolicy", "StorageAccessLogsPolicy");
    const statements = policy.Properties.PolicyDocument.Statement as Record<string, any>[];
    expect(statements).toContainEqual(expect.objectContaining({ Effect: "Deny", Condition: { Bool: { "aws:SecureTransport": "false" } } }));
    expect(statements).toContainEqual(expect.objectContaining({ Effect: "Allow", Action: "s3:PutObject", Principal: { Service: "logging.s3.amazonaws.com" } }));
  });

  it("has no CORS rules unless browser origins are configured", () => {
    expect(archiveBucket()[1].Properties.CorsConfiguration).toBeUndefined();
  });
});

describe("entry table", () => {
  it("is on-demand with point-in-time recovery and deletion protection, retained, keyed exactly like the registry's local table", () => {
    const [, table] = onlyOne("AWS::DynamoDB::GlobalTable");
    expect(table.Properties.BillingMode).toBe("PAY_PER_REQUEST");
    expect(table.Properties.Replicas[0].DeletionProtectionEnabled).toBe(true);
    expect(table.Properties.Replicas[0].PointInTimeRecoverySpecification).toEqual({ PointInTimeRecoveryEnabled: true });
    expect(table.DeletionPolicy).toBe("Retain");
    expect(table.UpdateReplacePolicy).toBe("Retain");
    expect(table.Properties.KeySchema).toEqual([
      { AttributeName: TABLE_KEYS.partition, KeyType: "HASH" },
      { AttributeName: TABLE_KEYS.sort, KeyType: "RANGE" },
    ]);
    const indexes = Object.fromEntries((table.Properties.GlobalSecondaryIndexes as { IndexName: string }[]).map((index) => [index.IndexName, index]));
    expect(indexes[LATEST_INDEX.name]).toMatchObject({
      KeySchema: [
        { AttributeName: LATEST_INDEX.partition, KeyType: "HASH" },
        { AttributeName: LATEST_INDEX.sort, KeyType: "RANGE" },
      ],
      Projection: { ProjectionType: "ALL" },
    });
    expect(indexes[ARCHIVE_INDEX.name]).toMatchObject({
      KeySchema: [{ AttributeName: ARCHIVE_INDEX.partition, KeyType: "HASH" }],
      Projection: { ProjectionType: "KEYS_ONLY" },
    });
    expect(Object.keys(indexes)).toHaveLength(2);
  });
});

describe("functions", () => {
  it("are the listed functions: Node.js 24, arm64, sized memory and timeouts, JSON logs", () => {
    expect(ofType("AWS::Lambda::Function")).toHaveLength(REGISTRY_FUNCTIONS.length);
    for (const [index, name] of FUNCTION_NAMES.entries()) {
      const definition = REGISTRY_FUNCTIONS[index]!;
      const fn = resources[functionId(name)]!.Properties;
      expect(fn.Runtime).toBe("nodejs24.x");
      expect(fn.MemorySize).toBe(definition.memorySize);
      expect(fn.Timeout).toBe(definition.timeout.toSeconds());
      expect(fn.Description).toBe(definition.description);
      expect(fn.LoggingConfig).toMatchObject({ LogFormat: "JSON", ApplicationLogLevel: "INFO", SystemLogLevel: "WARN" });
      expect(fn.Architectures).toEqual(["arm64"]);
      expect(fn.Handler).toBe("index.handler");
      expect(fn.MemorySize).toBeGreaterThanOrEqual(256);
      expect(fn.Timeout).toBeLessThanOrEqual(29); // API Gateway gives up after 30 s
      expect(fn.LoggingConfig.LogGroup).toBeDefined();
    }
  });

  it("reserve concurrency for upload only, so a burst of writes cannot starve the readers", () => {
    expect(resources[functionId("Upload")]!.Properties.ReservedConcurrentExecutions).toBe(10);
    for (const name of FUNCTION_NAMES.filter((name) => name !== "Upload")) {
      expect(resources[functionId(name)]!.Properties.ReservedConcurrentExecutions, name).toBeUndefined();
    }
  });

  it("read table and bucket from the environment; only upload knows the token secret", () => {
    const [tableId] = onlyOne("AWS::DynamoDB::GlobalTable");
    const [bucketId] = archiveBucket();
    const [secretId] = onlyOne("AWS::SecretsManager::Secret");
    for (const name of FUNCTION_NAMES) {
      const env = resources[functionId(name)]!.Properties.Environment.Variables;
      expect(env).toMatchObject({
        TABLE_NAME: { Ref: tableId },
        BUCKET_NAME: { Ref: bucketId },
        ARCHIVE_DELIVERY: "redirect",
        AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true",
      });
      if (name === "Upload") expect(env.TOKEN_SECRET_ARN).toEqual({ Ref: secretId });
      else expect(env.TOKEN_SECRET_ARN).toBeUndefined();
    }
  });

  it("log to their own log groups with a retention", () => {
    const groups = ofType("AWS::Logs::LogGroup");
    expect(groups).toHaveLength(REGISTRY_FUNCTIONS.length + 1); // the functions + API access logs
    for (const [, group] of groups) expect(group.Properties.RetentionInDays).toBe(30);
  });
});

describe("IAM least privilege", () => {
  const WRITE_VERB = /:(Put|Update|Delete|BatchWrite|Create|Restore|Tag|Untag|Abort|Replicate|Write|Transact)/;

  it("grants each function exactly the actions its routes use", () => {
    const expected = {
      Upload: [
        "dynamodb:BatchWriteItem", "dynamodb:DeleteItem", "dynamodb:GetItem", "dynamodb:PutItem", "dynamodb:Query", "dynamodb:UpdateItem",
        "logs:CreateLogStream", "logs:PutLogEvents",
        "s3:DeleteObject", "s3:GetObject", "s3:ListBucket", "s3:PutObject",
        "secretsmanager:GetSecretValue",
      ],
      Fetch: ["dynamodb:GetItem", "dynamodb:Query", "logs:CreateLogStream", "logs:PutLogEvents", "s3:GetObject"],
      Search: ["dynamodb:GetItem", "dynamodb:Query", "logs:CreateLogStream", "logs:PutLogEvents"],
    };
    for (const [name, actions] of Object.entries(expected)) {
      expect([...roleOf(name as FunctionName).actions].sort(), name).toEqual(actions);
    }
  });

  it("gives fetch and search no write action at all", () => {
    for (const name of ["Fetch", "Search"] as const) {
      const writes = [...roleOf(name).actions].filter((action) => WRITE_VERB.test(action) && !action.startsWith("logs:"));
      expect(writes, name).toEqual([]);
    }
  });

  it("has no wildcard action, no wildcard resource and no managed policy", () => {
    for (const name of FUNCTION_NAMES) {
      const { role, statements } = roleOf(name);
      expect(role.Properties.ManagedPolicyArns, name).toBeUndefined();
      for (const statement of statements) {
        expect(statement.Effect).toBe("Allow");
        for (const action of [statement.Action].flat()) expect(action, name).not.toContain("*");
        for (const resource of [statement.Resource].flat()) expect(resource, name).not.toBe("*");
      }
    }
  });

  it("scopes object actions to archives/ and uploads/, table actions to the table and its indexes", () => {
    const [bucketId] = archiveBucket();
    const [tableId] = onlyOne("AWS::DynamoDB::GlobalTable");
    for (const name of FUNCTION_NAMES) {
      for (const statement of roleOf(name).statements) {
        const actions = [statement.Action].flat();
        const resource = json(statement.Resource);
        if (actions.some((action) => action.startsWith("s3:") && action !== "s3:ListBucket")) {
          expect(resource).toContain(bucketId);
          expect(resource).toMatch(/"\/(archives|uploads)\/\*"/);
        }
        if (actions.includes("s3:ListBucket")) expect(statement.Resource).toEqual({ "Fn::GetAtt": [bucketId, "Arn"] });
        if (actions.some((action) => action.startsWith("dynamodb:"))) {
          expect(statement.Resource).toEqual([{ "Fn::GetAtt": [tableId, "Arn"] }, { "Fn::Join": ["", [{ "Fn::GetAtt": [tableId, "Arn"] }, "/index/*"]] }]);
        }
      }
    }
    // Fetch may read archives (for the presigned redirect) but never incoming uploads.
    expect(json(roleOf("Fetch").statements)).not.toContain("uploads/");
    expect(json(roleOf("Search").statements)).not.toContain("archives/");
  });

  it("lets only upload read the token secret, and only that secret", () => {
    const [secretId] = onlyOne("AWS::SecretsManager::Secret");
    const secretStatements = roleOf("Upload").statements.filter((statement) => json(statement.Action).includes("secretsmanager"));
    expect(secretStatements).toEqual([{ Effect: "Allow", Action: "secretsmanager:GetSecretValue", Resource: { Ref: secretId } }]);
    for (const name of ["Fetch", "Search"] as const) expect(json(roleOf(name).statements)).not.toContain("secretsmanager");
  });
});

describe("HTTP API", () => {
  /** route key → function (Upload/Fetch/Search), resolved through the integration's URI. */
  function routeTargets(): Record<string, string> {
    const functionOfIntegration = Object.fromEntries(
      ofType("AWS::ApiGatewayV2::Integration").map(([id, integration]) => [id, (integration.Properties.IntegrationUri["Fn::GetAtt"][0] as string).replace(/Function.*/, "")]),
    );
    return Object.fromEntries(
      ofType("AWS::ApiGatewayV2::Route").map(([, route]) => {
        const integrationId = route.Properties.Target["Fn::Join"][1][1].Ref as string;
        return [route.Properties.RouteKey as string, functionOfIntegration[integrationId]!];
      }),
    );
  }

  it("routes writes to upload, search to search and everything else to fetch", () => {
    expect(routeTargets()).toEqual({
      "POST /tools/upload": "Upload",
      "POST /tools/uploads": "Upload",
      "POST /tools/uploads/{uploadId}/complete": "Upload",
      "PUT /tools/{id}": "Upload",
      "DELETE /tools/{id}": "Upload",
      "GET /tools/search": "Search",
      $default: "Fetch",
    });
    for (const [, integration] of ofType("AWS::ApiGatewayV2::Integration")) {
      expect(integration.Properties).toMatchObject({ IntegrationType: "AWS_PROXY", PayloadFormatVersion: "2.0" });
    }
    const [, api] = onlyOne("AWS::ApiGatewayV2::Api");
    expect(api.Properties.ProtocolType).toBe("HTTP");
    expect(api.Properties.CorsConfiguration).toBeUndefined();
  });

  it("throttles the default stage and writes JSON access logs to a retained-for-30-days log group", () => {
    const [, stage] = onlyOne("AWS::ApiGatewayV2::Stage");
    expect(stage.Properties).toMatchObject({
      StageName: "$default",
      AutoDeploy: true,
      DefaultRouteSettings: { ThrottlingRateLimit: 50, ThrottlingBurstLimit: 100 },
    });
    const logGroupId = stage.Properties.AccessLogSettings.DestinationArn["Fn::GetAtt"][0] as string;
    expect(resources[logGroupId]!.Type).toBe("AWS::Logs::LogGroup");
    const format = JSON.parse(stage.Properties.AccessLogSettings.Format as string) as Record<string, string>;
    expect(format).toMatchObject({ requestId: "$context.requestId", status: "$context.status", route: "$context.routeKey" });
  });

  it("lets API Gateway invoke each function", () => {
    const permissions = ofType("AWS::Lambda::Permission").map(([, permission]) => permission.Properties);
    for (const name of FUNCTION_NAMES) {
      expect(permissions.some((permission) => permission.FunctionName["Fn::GetAtt"]?.[0] === functionId(name) && permission.Principal === "apigateway.amazonaws.com")).toBe(true);
    }
  });
});

describe("write-token secret and outputs", () => {
  it("generates the token in Secrets Manager", () => {
    const [, secret] = onlyOne("AWS::SecretsManager::Secret");
    expect(secret.Properties.GenerateSecretString).toMatchObject({ PasswordLength: 48, ExcludePunctuation: true });
    expect(secret.Properties.SecretString).toBeUndefined();
  });

  it("outputs the API URL, bucket, table and secret ARN", () => {
    const [apiId] = onlyOne("AWS::ApiGatewayV2::Api");
    const outputs = synth.template.toJSON().Outputs as Record<string, { Value: unknown }>;
    expect(Object.keys(outputs).sort()).toEqual(["ApiUrl", "BucketName", "TableName", "TokenSecretArn"]);
    expect(json(outputs.ApiUrl!.Value)).toContain(apiId);
    synth.template.hasOutput("BucketName", { Value: { Ref: archiveBucket()[0] } });
    synth.template.hasOutput("TableName", { Value: { Ref: onlyOne("AWS::DynamoDB::GlobalTable")[0] } });
    synth.template.hasOutput("TokenSecretArn", { Value: { Ref: onlyOne("AWS::SecretsManager::Secret")[0] } });
  });
});

describe("configuration by context", () => {
  it("sets names, retention, throttling, CORS origins and the bundle limit", () => {
    const custom = synthStack({
      bucketName: "acme-agent-tools",
      tableName: "acme-tools",
      logRetentionDays: "14",
      throttleRateLimit: "5",
      throttleBurstLimit: "10",
      allowedOrigins: "https://a.example, https://b.example",
      maxBundleBytes: "20971520",
    });
    try {
      const template = custom.template;
      template.hasResourceProperties("AWS::S3::Bucket", { BucketName: "acme-agent-tools" });
      template.hasResourceProperties("AWS::DynamoDB::GlobalTable", { TableName: "acme-tools" });
      template.allResourcesProperties("AWS::Logs::LogGroup", { RetentionInDays: 14 });
      template.hasResourceProperties("AWS::ApiGatewayV2::Stage", { DefaultRouteSettings: { ThrottlingRateLimit: 5, ThrottlingBurstLimit: 10 } });
      template.hasResourceProperties("AWS::ApiGatewayV2::Api", {
        CorsConfiguration: Match.objectLike({
          AllowOrigins: ["https://a.example", "https://b.example"],
          AllowHeaders: ["authorization", "content-type"],
        }),
      });
      template.hasResourceProperties("AWS::Lambda::Function", {
        Environment: { Variables: Match.objectLike({ MAX_BUNDLE_BYTES: "20971520", TOKEN_SECRET_ARN: Match.anyValue() }) },
      });
      // Browsers follow the archive redirect and PUT large bundles straight to the bucket.
      template.hasResourceProperties("AWS::S3::Bucket", {
        BucketName: "acme-agent-tools",
        CorsConfiguration: {
          CorsRules: [
            {
              AllowedOrigins: ["https://a.example", "https://b.example"],
              AllowedMethods: ["GET", "HEAD", "PUT"],
              AllowedHeaders: ["content-type", "content-length"],
              ExposedHeaders: ["etag", "content-length"],
              MaxAge: 3600,
            },
          ],
        },
      });
    } finally {
      custom.cleanup();
    }
  });

  it("refuses a retention CloudWatch does not offer and a non-numeric limit", () => {
    expect(() => synthStack({ logRetentionDays: "10" })).toThrow(/logRetentionDays must be one of/);
    expect(() => synthStack({ throttleRateLimit: "fast" })).toThrow(/throttleRateLimit" must be a positive integer/);
  });

  it("builds one stack per stage, named and tagged by it, with the stage's own settings from `stages`", () => {
    const stages = { dev: { logRetentionDays: 14, uploadReservedConcurrency: "none" }, prod: { logRetentionDays: 90 } };
    const dev = synthStack({ stages });
    const prod = synthStack({ stages, stage: "prod" });
    const overridden = synthStack({ stages, stage: "prod", logRetentionDays: 7 });
    try {
      expect(dev.stack.stackName).toBe("AgentToolsRegistry-dev");
      expect(prod.stack.stackName).toBe("AgentToolsRegistry-prod");
      dev.template.allResourcesProperties("AWS::Logs::LogGroup", { RetentionInDays: 14 });
      prod.template.allResourcesProperties("AWS::Logs::LogGroup", { RetentionInDays: 90 });
      overridden.template.allResourcesProperties("AWS::Logs::LogGroup", { RetentionInDays: 7 }); // -c beats the stage's value
      const reserved = (synth: SynthesizedStack) =>
        Object.values(synth.template.findResources("AWS::Lambda::Function")).map((fn) => fn.Properties.ReservedConcurrentExecutions as number | undefined);
      expect(reserved(dev).every((value) => value === undefined)).toBe(true);
      expect(reserved(prod)).toContain(10);
      prod.template.hasResourceProperties("AWS::Lambda::Function", { Tags: Match.arrayWith([{ Key: "agent-tools:stage", Value: "prod" }]) });
    } finally {
      for (const synth of [dev, prod, overridden]) synth.cleanup();
    }
  });

  it("refuses a stage name that cannot be part of resource names", () => {
    expect(() => synthStack({ stage: "Prod.EU" })).toThrow(/context "stage" must match/);
  });

  it("names the stack from context", () => {
    const named = synthStack({ stackName: "ToolsStaging" });
    try {
      expect(named.stack.stackName).toBe("ToolsStaging");
    } finally {
      named.cleanup();
    }
  });
});
