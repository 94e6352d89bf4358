import { Match } from "aws-cdk-lib/assertions";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ARCHIVE_INDEX, EXPIRES_AT_ATTRIBUTE, LATEST_INDEX, REVISION_KEY, TABLE_KEYS } from "../../functions/storage/table-schema.js";
import { REGISTRY_FUNCTIONS } from "../../infra/registry-functions.js";
import {
  FUNCTION_NAMES,
  functionLogicalId,
  functionRole,
  registryFunctions,
  synthStack,
  type FunctionName,
  type SynthesizedStack,
  type TemplateResources as Resources,
} from "./synth-stack.js";

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

/** The generated write-token and cursor-key secrets (logical ids start with their construct ids). */
const tokenSecret = () => named("AWS::SecretsManager::Secret", "WriteToken");
const cursorSecret = () => named("AWS::SecretsManager::Secret", "CursorKey");
/** The functions that issue or check page cursors: the API's. */
const CURSOR_READERS: readonly FunctionName[] = ["Upload", "Fetch", "Search"];

/** The one resource of this type whose logical id starts with `prefix` (construct path, e.g. `StorageArchives`). */
const named = (type: string, prefix: string) => {
  const found = ofType(type).filter(([id]) => id.startsWith(prefix));
  expect(found, `${type} ${prefix}`).toHaveLength(1);
  return found[0]!;
};
const archiveBucket = () => named("AWS::S3::Bucket", "StorageArchives");

const functionId = (name: FunctionName) => functionLogicalId(resources, name);
const roleOf = (name: FunctionName) => functionRole(resources, name);
/** A function's environment variables in a synthesised template (this file's, or another synth's). */
const environmentOf = (name: FunctionName, template: Resources = resources): Record<string, unknown> =>
  template[functionLogicalId(template, name)]!.Properties.Environment.Variables;
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
    expect(rules).toContainEqual(
      expect.objectContaining({
        Prefix: "uploads/",
        ExpirationInDays: 1,
        NoncurrentVersionExpiration: { NoncurrentDays: 1 },
        Status: "Enabled",
      }),
    );
    expect(rules).toContainEqual(
      expect.objectContaining({ AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 }, Status: "Enabled" }),
    );
    // No rule may ever expire published archives.
    for (const rule of rules) if ("ExpirationInDays" in rule) expect(rule.Prefix).toBe("uploads/");
  });

  it("keeps replaced index snapshots one day only (they are rebuilt from the table at will)", () => {
    const [, bucket] = archiveBucket();
    const rules = bucket.Properties.LifecycleConfiguration.Rules as Record<string, unknown>[];
    expect(rules).toContainEqual(
      expect.objectContaining({ Prefix: "search-index/", NoncurrentVersionExpiration: { NoncurrentDays: 1 }, Status: "Enabled" }),
    );
  });

  it("is versioned, keeping replaced and deleted versions for the 35 days point-in-time recovery reaches back", () => {
    const [, bucket] = archiveBucket();
    expect(bucket.Properties.VersioningConfiguration).toEqual({ Status: "Enabled" });
    const rules = bucket.Properties.LifecycleConfiguration.Rules as Record<string, unknown>[];
    expect(rules).toContainEqual({
      Id: "expire-noncurrent-versions",
      NoncurrentVersionExpiration: { NoncurrentDays: 35 },
      ExpiredObjectDeleteMarker: true,
      Status: "Enabled",
    });
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
    expect(statements).toContainEqual(
      expect.objectContaining({ Effect: "Allow", Action: "s3:PutObject", Principal: { Service: "logging.s3.amazonaws.com" } }),
    );
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
    const indexes = Object.fromEntries(
      (table.Properties.GlobalSecondaryIndexes as { IndexName: string }[]).map((index) => [index.IndexName, index]),
    );
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

  it("expires audit events by time to live, after auditRetentionDays (400 by default) that upload is told", () => {
    const [, table] = onlyOne("AWS::DynamoDB::GlobalTable");
    expect(table.Properties.TimeToLiveSpecification).toEqual({ AttributeName: EXPIRES_AT_ATTRIBUTE, Enabled: true });
    expect(environmentOf("Upload").AUDIT_RETENTION_DAYS).toBe("400");
    const custom = synthStack({ auditRetentionDays: "30" });
    try {
      expect(environmentOf("Upload", custom.template.toJSON().Resources as Resources).AUDIT_RETENTION_DAYS).toBe("30");
    } finally {
      custom.cleanup();
    }
  });
});

describe("functions", () => {
  it("are the listed functions: Node.js 24, arm64, sized memory and timeouts, JSON logs", () => {
    expect(Object.keys(registryFunctions(resources))).toHaveLength(REGISTRY_FUNCTIONS.length);
    // The only other function is CDK's, deploying the SDK package (below).
    expect(
      ofType("AWS::Lambda::Function")
        .filter(([id]) => !(id in registryFunctions(resources)))
        .map(([id]) => id),
    ).toEqual([expect.stringMatching(/^CustomCDKBucketDeployment/)]);
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
      if (definition.routes !== undefined) expect(fn.Timeout, name).toBeLessThanOrEqual(29); // API Gateway gives up after 30 s
      expect(fn.LoggingConfig.LogGroup).toBeDefined();
    }
  });

  it("reserve concurrency for upload only, so a burst of writes cannot starve the readers", () => {
    expect(resources[functionId("Upload")]!.Properties.ReservedConcurrentExecutions).toBe(10);
    for (const name of FUNCTION_NAMES.filter((name) => name !== "Upload")) {
      expect(resources[functionId(name)]!.Properties.ReservedConcurrentExecutions, name).toBeUndefined();
    }
  });

  it("read table and bucket from the environment; only upload knows the token secret, the API's functions the cursor key", () => {
    const [tableId] = onlyOne("AWS::DynamoDB::GlobalTable");
    const [bucketId] = archiveBucket();
    const [secretId] = tokenSecret();
    for (const name of FUNCTION_NAMES) {
      const env = environmentOf(name);
      expect(env).toMatchObject({
        TABLE_NAME: { Ref: tableId },
        BUCKET_NAME: { Ref: bucketId },
        ARCHIVE_DELIVERY: "cdn", // `redirect` (presigned S3) without CloudFront: see the CloudFront tests
        AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true",
      });
      if (name === "Upload") expect(env.TOKEN_SECRET_ARN).toEqual({ Ref: secretId });
      else expect(env.TOKEN_SECRET_ARN).toBeUndefined();
      if (CURSOR_READERS.includes(name)) expect(env.CURSOR_SECRET_ARN).toEqual({ Ref: cursorSecret()[0] });
      else expect(env.CURSOR_SECRET_ARN).toBeUndefined();
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
    // Fetch and search only read: entries, objects, and the cursor key.
    const reader = [
      "dynamodb:GetItem",
      "dynamodb:Query",
      "logs:CreateLogStream",
      "logs:PutLogEvents",
      "s3:GetObject",
      "secretsmanager:GetSecretValue",
    ];
    const expected = {
      Upload: [
        "dynamodb:BatchWriteItem",
        "dynamodb:DeleteItem",
        "dynamodb:GetItem",
        "dynamodb:PutItem",
        "dynamodb:Query",
        "dynamodb:Scan",
        "dynamodb:UpdateItem",
        "logs:CreateLogStream",
        "logs:PutLogEvents",
        "s3:DeleteObject",
        "s3:GetObject",
        "s3:ListBucket",
        "s3:PutObject",
        "secretsmanager:GetSecretValue",
      ],
      Fetch: reader,
      Search: reader,
      Indexer: [
        "dynamodb:GetItem",
        "dynamodb:Query",
        "dynamodb:UpdateItem",
        "logs:CreateLogStream",
        "logs:PutLogEvents",
        "s3:DeleteObject",
        "s3:GetObject",
        "s3:ListBucket",
        "s3:PutObject",
      ],
      Sweeper: [
        "dynamodb:BatchGetItem",
        "dynamodb:BatchWriteItem",
        "dynamodb:DeleteItem",
        "dynamodb:GetItem",
        "dynamodb:PutItem",
        "dynamodb:Query",
        "dynamodb:Scan",
        "dynamodb:UpdateItem",
        "logs:CreateLogStream",
        "logs:PutLogEvents",
        "s3:DeleteObject",
        "s3:GetObject",
        "s3:ListBucket",
        "s3:PutObject",
      ],
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

  it("scopes object actions to archives/, uploads/, search-index/ and sdk/, table actions to the table and its indexes", () => {
    const [bucketId] = archiveBucket();
    const [tableId] = onlyOne("AWS::DynamoDB::GlobalTable");
    for (const name of FUNCTION_NAMES) {
      for (const statement of roleOf(name).statements) {
        const actions = [statement.Action].flat();
        const resource = json(statement.Resource);
        if (actions.some((action) => action.startsWith("s3:") && action !== "s3:ListBucket")) {
          expect(resource).toContain(bucketId);
          expect(resource).toMatch(/"\/(archives|uploads|search-index|sdk)\/\*"/);
        }
        if (actions.includes("s3:ListBucket")) expect(statement.Resource).toEqual({ "Fn::GetAtt": [bucketId, "Arn"] });
        // The indexer's one conditional grant (the revision item) is on the table alone: items are not written through indexes.
        if (actions.some((action) => action.startsWith("dynamodb:"))) {
          expect(statement.Resource).toEqual(
            "Condition" in statement
              ? { "Fn::GetAtt": [tableId, "Arn"] }
              : [{ "Fn::GetAtt": [tableId, "Arn"] }, { "Fn::Join": ["", [{ "Fn::GetAtt": [tableId, "Arn"] }, "/index/*"]] }],
          );
        }
      }
    }
    // Fetch may read archives (for the presigned redirect) but never incoming uploads.
    expect(json(roleOf("Fetch").statements)).not.toContain("uploads/");
    expect(json(roleOf("Search").statements)).not.toContain("archives/");
    // Only the indexer writes the index snapshots, and it touches nothing else in the bucket.
    const objectResources = (name: FunctionName, action: string) =>
      roleOf(name)
        .statements.filter((statement) => [statement.Action].flat().includes(action))
        .map((statement) => json(statement.Resource));
    for (const name of ["Search", "Fetch"] as const)
      expect(
        objectResources(name, "s3:GetObject").filter((resource) => resource.includes("search-index/")),
        name,
      ).toHaveLength(1);
    for (const name of FUNCTION_NAMES.filter((name) => name !== "Indexer")) {
      expect(json(roleOf(name).statements.filter((statement) => WRITE_VERB.test(json(statement.Action)))), name).not.toContain(
        "search-index/",
      );
    }
    expect(json(roleOf("Indexer").statements)).not.toMatch(/archives\/|uploads\//);
  });

  it("lets the indexer update only the catalog revision item (where it names its snapshots)", () => {
    const updates = roleOf("Indexer").statements.filter((statement) => [statement.Action].flat().includes("dynamodb:UpdateItem"));
    expect(updates).toHaveLength(1);
    expect(updates[0]!.Action).toBe("dynamodb:UpdateItem");
    expect((updates[0] as { Condition?: unknown }).Condition).toEqual({
      "ForAllValues:StringEquals": { "dynamodb:LeadingKeys": [REVISION_KEY.tool_id] },
    });
  });

  it("lets only upload read the token secret, the API's functions the cursor key, and nothing else", () => {
    const read = (secret: string) => ({ Effect: "Allow", Action: "secretsmanager:GetSecretValue", Resource: { Ref: secret } });
    const secretStatements = (name: FunctionName) =>
      roleOf(name).statements.filter((statement) => json(statement.Action).includes("secretsmanager"));
    expect(secretStatements("Upload")).toEqual([read(tokenSecret()[0]), read(cursorSecret()[0])]);
    for (const name of ["Fetch", "Search"] as const) expect(secretStatements(name), name).toEqual([read(cursorSecret()[0])]);
    for (const name of FUNCTION_NAMES.filter((name) => !CURSOR_READERS.includes(name))) expect(secretStatements(name), name).toEqual([]);
  });
});

describe("HTTP API", () => {
  /** route key → function (Upload/Fetch/Search), resolved through the integration's URI. */
  function routeTargets(): Record<string, string> {
    const functionOfIntegration = Object.fromEntries(
      ofType("AWS::ApiGatewayV2::Integration").map(([id, integration]) => [
        id,
        (integration.Properties.IntegrationUri["Fn::GetAtt"][0] as string).replace(/Function.*/, ""),
      ]),
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
      "PATCH /tools/{id}/versions/{version}": "Upload",
      "DELETE /tools/{id}/versions/{version}": "Upload",
      "POST /registry/doctor": "Upload",
      "POST /tokens": "Upload",
      "GET /tokens": "Upload",
      "DELETE /tokens/{name}": "Upload",
      "GET /audit": "Upload",
      "PUT /publishers/{name}/keys": "Upload",
      "GET /publishers/{name}/keys": "Upload",
      "DELETE /publishers/{name}/keys/{keyId}": "Upload",
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

  it("throttles each route, public reads in the thousands, and writes JSON access logs to a retained-for-30-days log group", () => {
    const [stageId, stage] = onlyOne("AWS::ApiGatewayV2::Stage");
    expect(stage.Properties).toMatchObject({
      StageName: "$default",
      AutoDeploy: true,
      DefaultRouteSettings: { ThrottlingRateLimit: 5000, ThrottlingBurstLimit: 5000 },
    });
    // Every explicit route has its function's limits; each exists before the stage names it.
    const routeKeys = ofType("AWS::ApiGatewayV2::Route")
      .map(([id, route]) => ({ id, key: route.Properties.RouteKey as string }))
      .filter((route) => route.key !== "$default");
    const settings = stage.Properties.RouteSettings as Record<string, { ThrottlingRateLimit: number; ThrottlingBurstLimit: number }>;
    expect(Object.keys(settings).sort()).toEqual(routeKeys.map((route) => route.key).sort());
    expect(settings["GET /tools/search"]).toEqual({ ThrottlingRateLimit: 2000, ThrottlingBurstLimit: 2000 });
    for (const [key, limits] of Object.entries(settings))
      if (key !== "GET /tools/search") expect(limits, key).toEqual({ ThrottlingRateLimit: 200, ThrottlingBurstLimit: 400 });
    expect(resources[stageId]!.DependsOn).toEqual(expect.arrayContaining(routeKeys.map((route) => route.id)));
    const logGroupId = stage.Properties.AccessLogSettings.DestinationArn["Fn::GetAtt"][0] as string;
    expect(resources[logGroupId]!.Type).toBe("AWS::Logs::LogGroup");
    const format = JSON.parse(stage.Properties.AccessLogSettings.Format as string) as Record<string, string>;
    expect(format).toMatchObject({ requestId: "$context.requestId", status: "$context.status", route: "$context.routeKey" });
  });

  it("lets API Gateway invoke each function", () => {
    const permissions = ofType("AWS::Lambda::Permission").map(([, permission]) => permission.Properties);
    for (const [index, name] of FUNCTION_NAMES.entries()) {
      const invoked = permissions.some(
        (permission) =>
          permission.FunctionName["Fn::GetAtt"]?.[0] === functionId(name) && permission.Principal === "apigateway.amazonaws.com",
      );
      expect(invoked, name).toBe(REGISTRY_FUNCTIONS[index]!.routes !== undefined);
    }
  });

  it("retries no scheduled run: each does the whole job again, and the next one comes soon", () => {
    const rules = ofType("AWS::Events::Rule");
    expect(rules.length).toBeGreaterThan(0);
    for (const [, rule] of rules) {
      const [target] = rule.Properties.Targets as { Arn: { "Fn::GetAtt": string[] }; RetryPolicy?: unknown }[];
      expect(target!.RetryPolicy).toEqual({ MaximumRetryAttempts: 0 });
      const invokeConfigs = ofType("AWS::Lambda::EventInvokeConfig").filter(
        ([, config]) => config.Properties.FunctionName.Ref === target!.Arn["Fn::GetAtt"][0],
      );
      expect(invokeConfigs.map(([, config]) => config.Properties.MaximumRetryAttempts)).toEqual([0]);
    }
  });

  it(
    "runs the sweeper (incremental repair, resumable full pass) every 10 minutes " +
      "and the search indexer every minute from EventBridge schedules, outside the API",
    () => {
      const schedules = Object.fromEntries(
        ofType("AWS::Events::Rule").map(([, rule]) => [
          (rule.Properties.Targets as { Arn: { "Fn::GetAtt": string[] } }[])[0]!.Arn["Fn::GetAtt"][0],
          rule.Properties.ScheduleExpression,
        ]),
      );
      expect(schedules).toEqual({ [functionId("Sweeper")]: "rate(10 minutes)", [functionId("Indexer")]: "rate(1 minute)" });
      const permissions = ofType("AWS::Lambda::Permission").map(([, permission]) => permission.Properties);
      for (const name of ["Sweeper", "Indexer"] as const) {
        expect(
          permissions
            .filter((permission) => permission.FunctionName["Fn::GetAtt"]?.[0] === functionId(name))
            .map((permission) => permission.Principal),
          name,
        ).toEqual(["events.amazonaws.com"]);
      }
    },
  );
});

describe("secrets and outputs", () => {
  it("generates the write token and the cursor key in Secrets Manager, and nothing else there", () => {
    expect(ofType("AWS::SecretsManager::Secret")).toHaveLength(2);
    const [, token] = tokenSecret();
    expect(token.Properties.GenerateSecretString).toMatchObject({ PasswordLength: 48, ExcludePunctuation: true });
    expect(token.Properties.SecretString).toBeUndefined();
    const [, cursorKey] = cursorSecret();
    expect(cursorKey.Properties.GenerateSecretString).toMatchObject({ PasswordLength: 64, ExcludePunctuation: true });
    expect(cursorKey.Properties.SecretString).toBeUndefined();
  });

  it("outputs the registry URL, API URL, distribution and its domain, bucket, table and secret ARN", () => {
    const [apiId] = onlyOne("AWS::ApiGatewayV2::Api");
    const outputs = synth.template.toJSON().Outputs as Record<string, { Value: unknown }>;
    expect(Object.keys(outputs).sort()).toEqual([
      "ApiUrl",
      "BucketName",
      "DistributionDomainName",
      "DistributionId",
      "RegistryUrl",
      "TableName",
      "TokenSecretArn",
    ]);
    const [distributionId] = onlyOne("AWS::CloudFront::Distribution");
    synth.template.hasOutput("DistributionId", { Value: { Ref: distributionId } });
    // With a custom domain this is what its DNS record points at.
    synth.template.hasOutput("DistributionDomainName", { Value: { "Fn::GetAtt": [distributionId, "DomainName"] } });
    expect(json(outputs.ApiUrl!.Value)).toContain(apiId);
    synth.template.hasOutput("BucketName", { Value: { Ref: archiveBucket()[0] } });
    synth.template.hasOutput("TableName", { Value: { Ref: onlyOne("AWS::DynamoDB::GlobalTable")[0] } });
    synth.template.hasOutput("TokenSecretArn", { Value: { Ref: tokenSecret()[0] } });
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
      searchRateLimit: "7",
      searchBurstLimit: "8",
      uploadRateLimit: "3",
      uploadBurstLimit: "4",
      edgeCacheSeconds: "0",
      allowedOrigins: "https://a.example, https://b.example",
      maxBundleBytes: "20971520",
    });
    try {
      const template = custom.template;
      template.hasResourceProperties("AWS::S3::Bucket", { BucketName: "acme-agent-tools" });
      template.hasResourceProperties("AWS::DynamoDB::GlobalTable", { TableName: "acme-tools" });
      template.allResourcesProperties("AWS::Logs::LogGroup", { RetentionInDays: 14 });
      template.hasResourceProperties("AWS::ApiGatewayV2::Stage", {
        DefaultRouteSettings: { ThrottlingRateLimit: 5, ThrottlingBurstLimit: 10 },
        RouteSettings: Match.objectLike({
          "GET /tools/search": { ThrottlingRateLimit: 7, ThrottlingBurstLimit: 8 },
          "POST /tools/upload": { ThrottlingRateLimit: 3, ThrottlingBurstLimit: 4 },
        }),
      });
      template.hasResourceProperties("AWS::Lambda::Function", {
        Environment: { Variables: Match.objectLike({ EDGE_CACHE_SECONDS: "0" }) },
      });
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

  it("sets the publisher write rate on upload, 60 a minute by default", () => {
    expect(environmentOf("Upload").PUBLISHER_WRITES_PER_MINUTE).toBe("60");
    const custom = synthStack({ publisherWritesPerMinute: "5" });
    try {
      expect(environmentOf("Upload", custom.template.toJSON().Resources as Resources).PUBLISHER_WRITES_PER_MINUTE).toBe("5");
    } finally {
      custom.cleanup();
    }
  });

  it("turns hybrid search on with Bedrock: the embedding functions get its variables and may invoke that one model", () => {
    const bedrockActions = (resources: Resources, name: FunctionName) =>
      functionRole(resources, name).statements.filter((statement) =>
        [statement.Action].flat().some((action) => String(action).startsWith("bedrock:")),
      );
    for (const name of FUNCTION_NAMES) {
      expect(bedrockActions(resources, name), `${name}, hybrid search off`).toEqual([]);
      expect(environmentOf(name).SEARCH_EMBEDDINGS, name).toBeUndefined();
    }
    const hybrid = synthStack({ searchEmbeddings: "bedrock", searchEmbeddingDimensions: "512" });
    try {
      const resources = hybrid.template.toJSON().Resources as Resources;
      for (const name of FUNCTION_NAMES) {
        const embeds = ["Upload", "Fetch", "Search"].includes(name);
        const variables = environmentOf(name, resources);
        const statements = bedrockActions(resources, name);
        if (!embeds) {
          expect(statements, name).toEqual([]);
          expect(variables.SEARCH_EMBEDDINGS, name).toBeUndefined();
          continue;
        }
        expect(variables, name).toMatchObject({
          SEARCH_EMBEDDINGS: "bedrock",
          SEARCH_EMBEDDING_MODEL: "amazon.titan-embed-text-v2:0",
          SEARCH_EMBEDDING_DIMENSIONS: "512",
        });
        expect(statements, name).toHaveLength(1);
        expect(statements[0]!.Action, name).toBe("bedrock:InvokeModel");
        expect(statements[0]!.Resource, name).toEqual({
          "Fn::Join": [
            "",
            ["arn:", { Ref: "AWS::Partition" }, ":bedrock:", { Ref: "AWS::Region" }, "::foundation-model/amazon.titan-embed-text-v2:0"],
          ],
        });
      }
    } finally {
      hybrid.cleanup();
    }
  });

  it("refuses an embedding service the stack cannot configure and a model id that is not one", () => {
    expect(() => synthStack({ searchEmbeddings: "openai" })).toThrow(/searchEmbeddings" must be off or bedrock, got "openai"/);
    expect(() => synthStack({ searchEmbeddings: "bedrock", searchEmbeddingModel: "amazon.*" })).toThrow(
      /searchEmbeddingModel" must be a Bedrock model id/,
    );
    expect(() => synthStack({ searchEmbeddingDimensions: "many" })).toThrow(/searchEmbeddingDimensions" must be a positive integer/);
  });

  it("refuses a retention CloudWatch does not offer and a non-numeric limit", () => {
    expect(() => synthStack({ logRetentionDays: "10" })).toThrow(/logRetentionDays must be one of/);
    expect(() => synthStack({ throttleRateLimit: "fast" })).toThrow(/throttleRateLimit" must be a positive integer/);
  });

  it("builds one stack per stage, named and tagged by it, with the stage's own settings from `stages`", () => {
    const stages = { dev: { logRetentionDays: 14, uploadReservedConcurrency: "none" }, prod: { logRetentionDays: 90 } };
    const dev = synthStack({ stages });
    const alarmed = { alarmTopicArn: "arn:aws:sns:eu-west-1:123456789012:ops" };
    const prod = synthStack({ stages, stage: "prod", ...alarmed });
    const overridden = synthStack({ stages, stage: "prod", logRetentionDays: 7, ...alarmed });
    try {
      expect(dev.stack.stackName).toBe("AgentToolsRegistry-dev");
      expect(prod.stack.stackName).toBe("AgentToolsRegistry-prod");
      dev.template.allResourcesProperties("AWS::Logs::LogGroup", { RetentionInDays: 14 });
      prod.template.allResourcesProperties("AWS::Logs::LogGroup", { RetentionInDays: 90 });
      overridden.template.allResourcesProperties("AWS::Logs::LogGroup", { RetentionInDays: 7 }); // -c beats the stage's value
      const reserved = (synth: SynthesizedStack) =>
        Object.values(synth.template.findResources("AWS::Lambda::Function")).map(
          (fn) => fn.Properties.ReservedConcurrentExecutions as number | undefined,
        );
      expect(reserved(dev).every((value) => value === undefined)).toBe(true);
      expect(reserved(prod)).toContain(10);
      prod.template.hasResourceProperties("AWS::Lambda::Function", {
        Tags: Match.arrayWith([{ Key: "agent-tools:stage", Value: "prod" }]),
      });
      // Deleting prod takes turning its termination protection off first.
      expect(prod.stack.terminationProtection).toBe(true);
      expect(dev.stack.terminationProtection).toBe(false);
    } finally {
      for (const synth of [dev, prod, overridden]) synth.cleanup();
    }
  });

  it("refuses a prod stage whose alarms would notify no one, saying how to give them a destination", () => {
    expect(() => synthStack({ stage: "prod" })).toThrow(
      /stage "prod": its alarms would notify no one\. Give -c alarmEmail=.* or -c alarmTopicArn=/,
    );
    expect(() => synthStack({ stage: "staging", requireAlarmDestination: "true" })).toThrow(
      /stage "staging": its alarms would notify no one/,
    );
    for (const context of [
      { stage: "prod", requireAlarmDestination: "false" },
      { stage: "prod", monitoring: "false" },
      { stage: "prod", alarmEmail: "ops@example.com" },
    ]) {
      const synth = synthStack(context);
      synth.cleanup();
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

describe("CloudFront in front of the API (on by default)", () => {
  const distribution = () => onlyOne("AWS::CloudFront::Distribution")[1].Properties.DistributionConfig;
  const behavior = (pattern: string) =>
    (distribution().CacheBehaviors as { PathPattern: string }[]).find((entry) => entry.PathPattern === pattern) as Record<string, any>;
  // Managed policies (ids are AWS's, fixed):
  // https://docs.aws.amazon.com/AmazonCloudFront/latest/DeveloperGuide/using-managed-cache-policies.html
  const CACHING_OPTIMIZED = "658327ea-f89d-4fab-a63d-7e88639e58f6";
  const cachePolicy = (reference: { Ref: string }) => resources[reference.Ref]!.Properties.CachePolicyConfig as Record<string, any>;
  const originRequestPolicy = (reference: { Ref: string }) =>
    resources[reference.Ref]!.Properties.OriginRequestPolicyConfig as Record<string, any>;
  const keyedHeaders = (policy: Record<string, any>) =>
    (policy.ParametersInCacheKeyAndForwardedToOrigin.HeadersConfig.Headers ?? []) as string[];

  /** The behaviour CloudFront picks for a path: the first whose pattern matches (`*` any run of characters, `?` one), else the default. */
  function behaviourFor(path: string): Record<string, any> {
    const config = distribution();
    const matches = (pattern: string) =>
      new RegExp(
        `^${pattern
          .replace(/[.+^${}()|[\]\\]/g, "\\$&")
          .replace(/\*/g, ".*")
          .replace(/\?/g, ".")}$`,
      ).test(path);
    return (config.CacheBehaviors as Record<string, any>[]).find((entry) => matches(entry.PathPattern)) ?? config.DefaultCacheBehavior;
  }

  it("sends everything to the API, caching as its Cache-Control says, keyed on the token and CORS origin", () => {
    const config = distribution();
    expect(config).toMatchObject({ Enabled: true, HttpVersion: "http2and3", PriceClass: "PriceClass_100" });
    expect(config.DefaultCacheBehavior).toMatchObject({
      ViewerProtocolPolicy: "https-only",
      AllowedMethods: ["GET", "HEAD", "OPTIONS", "PUT", "PATCH", "POST", "DELETE"],
      Compress: true,
    });
    const policy = cachePolicy(config.DefaultCacheBehavior.CachePolicyId);
    expect(policy).toMatchObject({ MinTTL: 0, DefaultTTL: 0, MaxTTL: 31_536_000 });
    expect(keyedHeaders(policy).sort()).toEqual(["authorization", "origin"]);
    expect(policy.ParametersInCacheKeyAndForwardedToOrigin.QueryStringsConfig.QueryStringBehavior).toBe("all");
    // Every viewer header but Host cannot carry CloudFront's own: an allow list, with the viewer's address.
    const forwarded = originRequestPolicy(config.DefaultCacheBehavior.OriginRequestPolicyId);
    expect(forwarded.HeadersConfig.HeaderBehavior).toBe("whitelist");
    expect(forwarded.HeadersConfig.Headers).toEqual(expect.arrayContaining(["cloudfront-viewer-address", "content-type"]));
    expect(forwarded.HeadersConfig.Headers).not.toContain("host");
    const apiOrigin = (config.Origins as Record<string, any>[]).find((origin) => origin.Id === config.DefaultCacheBehavior.TargetOriginId)!;
    expect(json(apiOrigin.DomainName)).toContain(onlyOne("AWS::ApiGatewayV2::Api")[0]);
    expect(apiOrigin.CustomOriginConfig.OriginProtocolPolicy).toBe("https-only");
  });

  it("forwards the token of every authenticated route, and never caches their GETs", () => {
    const authenticated = REGISTRY_FUNCTIONS.flatMap((definition) =>
      Array.isArray(definition.routes) ? definition.routes.filter((route) => route.authenticated) : [],
    );
    expect(authenticated.length).toBeGreaterThan(10);
    const apiOriginId = distribution().DefaultCacheBehavior.TargetOriginId;
    for (const route of authenticated) {
      const path = route.path.replace(/\{[^}]+\}/g, "sample");
      const chosen = behaviourFor(path);
      for (const method of route.methods) {
        const name = `${method} ${route.path}`;
        expect(chosen.TargetOriginId, name).toBe(apiOriginId);
        expect(chosen.AllowedMethods, name).toContain(method);
        const policy = cachePolicy(chosen.CachePolicyId);
        expect(keyedHeaders(policy), name).toContain("authorization");
        if (method === "GET" || method === "HEAD") expect(policy.MaxTTL, name).toBeLessThanOrEqual(1);
      }
    }
    expect(behaviourFor("/tokens").PathPattern).toBe("/tokens");
    expect(behaviourFor("/audit").PathPattern).toBe("/audit");
    expect(behaviourFor("/tools/text-stats").PathPattern).toBeUndefined();
  });

  it("serves /archives/* from the bucket through origin access control, cached", () => {
    const archives = behavior("/archives/*");
    expect(archives).toMatchObject({
      CachePolicyId: CACHING_OPTIMIZED,
      AllowedMethods: ["GET", "HEAD"],
      ViewerProtocolPolicy: "https-only",
    });
    const origin = (distribution().Origins as Record<string, any>[]).find((entry) => entry.Id === archives.TargetOriginId)!;
    expect(origin.OriginAccessControlId).toBeDefined();
    expect(json(origin.DomainName)).toContain(archiveBucket()[0]);
    const [, oac] = onlyOne("AWS::CloudFront::OriginAccessControl");
    expect(oac.Properties.OriginAccessControlConfig).toMatchObject({
      OriginAccessControlOriginType: "s3",
      SigningBehavior: "always",
      SigningProtocol: "sigv4",
    });
    const statements = named("AWS::S3::BucketPolicy", "StorageArchivesPolicy")[1].Properties.PolicyDocument.Statement as Record<
      string,
      any
    >[];
    const fromCloudFront = statements.filter((statement) => json(statement.Principal).includes("cloudfront.amazonaws.com"));
    expect(fromCloudFront).toEqual([
      expect.objectContaining({ Effect: "Allow", Action: "s3:GetObject", Principal: { Service: "cloudfront.amazonaws.com" } }),
    ]);
    // Origin access reaches archives/ only, and only from this distribution.
    expect(json(fromCloudFront[0]!.Resource)).toMatch(/"\/archives\/\*"\]/);
    expect(json(fromCloudFront[0]!.Condition)).toContain(onlyOne("AWS::CloudFront::Distribution")[0]);
  });

  it("answers oversized direct uploads at the edge, never caching uploads", () => {
    const upload = behavior("/tools/upload");
    expect(cachePolicy(upload.CachePolicyId).MaxTTL).toBeLessThanOrEqual(1);
    expect(upload.FunctionAssociations).toEqual([{ EventType: "viewer-request", FunctionARN: expect.anything() }]);
    const [, fn] = onlyOne("AWS::CloudFront::Function");
    expect(fn.Properties.FunctionConfig.Runtime).toBe("cloudfront-js-2.0");
    expect(fn.Properties.FunctionCode).toContain("Bundle too large");
  });

  it("adds a secret origin header that every function requires, and sets PUBLIC_URL and cdn archive delivery", () => {
    const apiOrigin = (distribution().Origins as Record<string, any>[]).find((origin) => origin.CustomOriginConfig)!;
    const header = (apiOrigin.OriginCustomHeaders as { HeaderName: string; HeaderValue: unknown }[]).find(
      (entry) => entry.HeaderName === "x-origin-verify",
    )!;
    expect(json(header.HeaderValue)).toContain("AWS::StackId");
    const [distributionId] = onlyOne("AWS::CloudFront::Distribution");
    for (const name of FUNCTION_NAMES) {
      const env = environmentOf(name);
      expect(env.ORIGIN_VERIFY_SECRET, name).toEqual(header.HeaderValue);
      expect(env.PUBLIC_URL, name).toEqual({ "Fn::Join": ["", ["https://", { "Fn::GetAtt": [distributionId, "DomainName"] }]] });
      expect(env.ARCHIVE_DELIVERY, name).toBe("cdn");
    }
    synth.template.hasOutput("RegistryUrl", {
      Value: { "Fn::Join": ["", ["https://", { "Fn::GetAtt": [distributionId, "DomainName"] }]] },
    });
  });

  it("takes a custom domain with its certificate, a WAF web ACL, or none of it", () => {
    const custom = synthStack({
      domainName: "tools.example.com",
      certificateArn: "arn:aws:acm:us-east-1:123456789012:certificate/11111111-2222-3333-4444-555555555555",
      webAclArn: "arn:aws:wafv2:us-east-1:123456789012:global/webacl/tools/abc",
    });
    const bare = synthStack({ cdn: "false" });
    try {
      custom.template.hasResourceProperties("AWS::CloudFront::Distribution", {
        DistributionConfig: Match.objectLike({
          Aliases: ["tools.example.com"],
          ViewerCertificate: {
            AcmCertificateArn: "arn:aws:acm:us-east-1:123456789012:certificate/11111111-2222-3333-4444-555555555555",
            MinimumProtocolVersion: "TLSv1.2_2021",
            SslSupportMethod: "sni-only",
          },
          WebACLId: "arn:aws:wafv2:us-east-1:123456789012:global/webacl/tools/abc",
        }),
      });
      custom.template.hasResourceProperties("AWS::Lambda::Function", {
        Environment: { Variables: Match.objectLike({ PUBLIC_URL: "https://tools.example.com" }) },
      });
      expect(Object.keys(bare.template.findResources("AWS::CloudFront::Distribution"))).toEqual([]);
      const env = Object.values(registryFunctions(bare.template.toJSON().Resources)).map((fn) => fn.Properties.Environment.Variables);
      for (const variables of env) {
        expect(variables.ORIGIN_VERIFY_SECRET).toBeUndefined();
        expect(variables.ARCHIVE_DELIVERY).toBe("redirect");
        expect(variables.PUBLIC_URL).toEqual({
          "Fn::GetAtt": [Object.keys(bare.template.findResources("AWS::ApiGatewayV2::Api"))[0], "ApiEndpoint"],
        });
      }
    } finally {
      custom.cleanup();
      bare.cleanup();
    }
    expect(() => synthStack({ domainName: "tools.example.com" })).toThrow(/domainName and certificateArn go together/);
    expect(() => synthStack({ cdn: "false", webAclArn: "arn:x" })).toThrow(/need the CloudFront distribution/);
  });
});

describe("alarms and dashboard", () => {
  const alarms = () => ofType("AWS::CloudWatch::Alarm").map(([id, alarm]) => ({ id, ...alarm.Properties }) as Record<string, any>);
  const alarmFor = (prefix: string) => alarms().find((alarm) => alarm.id.startsWith(`Monitoring${prefix}`))!;

  it("watch errors, throttles and p99 duration of every function", () => {
    for (const [index, name] of FUNCTION_NAMES.entries()) {
      const errors = alarmFor(`${name}Errors`);
      expect(errors).toMatchObject({
        MetricName: "Errors",
        Namespace: "AWS/Lambda",
        Statistic: "Sum",
        Threshold: 1,
        Period: 300,
        TreatMissingData: "notBreaching",
      });
      expect(errors.Dimensions).toEqual([{ Name: "FunctionName", Value: { Ref: functionId(name) } }]);
      expect(alarmFor(`${name}Throttles`)).toMatchObject({ MetricName: "Throttles", Threshold: 1 });
      expect(alarmFor(`${name}Duration`)).toMatchObject({
        MetricName: "Duration",
        ExtendedStatistic: "p99",
        Threshold: REGISTRY_FUNCTIONS[index]!.p99DurationAlarm.toMilliseconds(),
        EvaluationPeriods: 3,
        DatapointsToAlarm: 3,
      });
    }
  });

  it("watch API 5xx and p99 latency, and DynamoDB throttles", () => {
    const [apiId] = onlyOne("AWS::ApiGatewayV2::Api");
    expect(alarmFor("Api5xx")).toMatchObject({
      MetricName: "5xx",
      Namespace: "AWS/ApiGateway",
      Dimensions: [{ Name: "ApiId", Value: { Ref: apiId } }],
      Threshold: 1,
    });
    expect(alarmFor("ApiLatency")).toMatchObject({ MetricName: "Latency", ExtendedStatistic: "p99", Threshold: 3000 });
    const table = alarmFor("TableThrottles");
    expect(json(table.Metrics)).toContain("ReadThrottleEvents");
    expect(json(table.Metrics)).toContain("WriteThrottleEvents");
    expect(json(table.Metrics)).not.toContain("GlobalSecondaryIndexName");
    // Each index throttles on partitions of its own (the listing index most of all): an alarm each.
    for (const [prefix, index] of [
      ["LatestByToolIdThrottles", LATEST_INDEX.name],
      ["ByArchiveSha256Throttles", ARCHIVE_INDEX.name],
    ] as const) {
      const metrics = alarmFor(prefix).Metrics as {
        MetricStat?: { Metric: { MetricName: string; Dimensions: { Name: string; Value: unknown }[] } };
      }[];
      const stats = metrics.flatMap((metric) => (metric.MetricStat ? [metric.MetricStat.Metric] : []));
      expect(stats.map((metric) => metric.MetricName).sort(), prefix).toEqual(["ReadThrottleEvents", "WriteThrottleEvents"]);
      for (const metric of stats) expect(metric.Dimensions, prefix).toContainEqual({ Name: "GlobalSecondaryIndexName", Value: index });
    }
    expect(alarms()).toHaveLength(FUNCTION_NAMES.length * 3 + 3 + 2);
  });

  it("notify nobody by default, a new e-mail topic or an existing topic when configured", () => {
    for (const alarm of alarms()) expect(alarm.AlarmActions).toBeUndefined();
    expect(ofType("AWS::SNS::Topic")).toEqual([]);
    const mailed = synthStack({ alarmEmail: "ops@example.com" });
    const existing = synthStack({ alarmTopicArn: "arn:aws:sns:eu-west-1:123456789012:ops" });
    const quiet = synthStack({ monitoring: "false" });
    try {
      const [topicId] = Object.keys(mailed.template.findResources("AWS::SNS::Topic"));
      mailed.template.hasResourceProperties("AWS::SNS::Subscription", {
        Protocol: "email",
        Endpoint: "ops@example.com",
        TopicArn: { Ref: topicId },
      });
      mailed.template.allResourcesProperties("AWS::CloudWatch::Alarm", { AlarmActions: [{ Ref: topicId }], OKActions: [{ Ref: topicId }] });
      mailed.template.hasResourceProperties("AWS::SNS::TopicPolicy", {
        PolicyDocument: {
          Statement: Match.arrayWith([Match.objectLike({ Effect: "Deny", Condition: { Bool: { "aws:SecureTransport": "false" } } })]),
        },
      });
      existing.template.allResourcesProperties("AWS::CloudWatch::Alarm", { AlarmActions: ["arn:aws:sns:eu-west-1:123456789012:ops"] });
      expect(Object.keys(quiet.template.findResources("AWS::CloudWatch::Alarm"))).toEqual([]);
      expect(Object.keys(quiet.template.findResources("AWS::CloudWatch::Dashboard"))).toEqual([]);
    } finally {
      for (const synth of [mailed, existing, quiet]) synth.cleanup();
    }
  });

  it("draw a dashboard named after the stack, with a row per function", () => {
    const [, dashboard] = onlyOne("AWS::CloudWatch::Dashboard");
    expect(dashboard.Properties.DashboardName).toBe("AgentToolsRegistry-dev");
    const body = json(dashboard.Properties.DashboardBody);
    for (const name of FUNCTION_NAMES) expect(body).toContain(`${name}: duration p50 / p99 (ms)`);
    expect(body).toContain("DynamoDB: throttle events");
  });
});

describe("WAF (opt-in: it costs at idle)", () => {
  it("creates a web ACL with a per-IP rate rule in a us-east-1 stack and attaches it across regions", () => {
    const saved = process.env.AWS_REGION;
    process.env.AWS_REGION = "eu-west-1";
    const withWaf = synthStack({ waf: "true", wafRateLimit: "500" });
    try {
      const edge = withWaf.stack.node.root.node.findChild("AgentToolsRegistry-dev-edge") as import("aws-cdk-lib").Stack;
      expect(edge.region).toBe("us-east-1");
      expect(withWaf.stack.region).toBe("eu-west-1");
      const edgeTemplate = (withWaf.template.constructor as typeof import("aws-cdk-lib/assertions").Template).fromStack(edge);
      edgeTemplate.hasResourceProperties("AWS::WAFv2::WebACL", {
        Scope: "CLOUDFRONT",
        DefaultAction: { Allow: {} },
        Rules: [
          Match.objectLike({
            Name: "rate-per-ip",
            Action: { Block: {} },
            Statement: { RateBasedStatement: { Limit: 500, EvaluationWindowSec: 300, AggregateKeyType: "IP" } },
          }),
        ],
      });
      const config = Object.values(withWaf.template.findResources("AWS::CloudFront::Distribution"))[0]!.Properties.DistributionConfig;
      expect(config.WebACLId).toBeDefined();
    } finally {
      withWaf.cleanup();
      if (saved === undefined) delete process.env.AWS_REGION;
      else process.env.AWS_REGION = saved;
    }
  });
});
