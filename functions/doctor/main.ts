// `npm run doctor -- --data-dir .data [--fix]`, or against a deployed stack with `--table/--bucket/--region`:
// the same checks and repairs as `agent-tools registry doctor`, straight through the AWS SDK.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";

import { parseArgs } from "node:util";
import type { RegistryConfig } from "../config.js";

const USAGE = `Usage: npm run doctor -- (--data-dir <dir> | --table <name> --bucket <name> [--region <r>]) [options]

Checks the registry's storage for what crashes leave behind (unfinished publishes and deletes,
missing or stale latest pointers, orphaned, missing or damaged archives, revision drift), and
repairs it with --fix. With --data-dir the registry must be stopped (it holds the folder); for a
running one use: agent-tools registry doctor [--fix].

  --data-dir <dir>           the embedded store of npm start (DATA_DIR)
  --table, --bucket <name>   a deployed stack's table and bucket (AWS credentials from the environment)
  --region <region>          AWS region (default: AWS_REGION, else us-east-1)
  --dynamodb-endpoint <url>  --s3-endpoint <url>   other endpoints (emulators, S3-compatible stores)
  --fix                      repair what can be repaired
  --grace <seconds>          leave objects and publishes younger than this alone (default 3600)
  --verify-archives          read every referenced archive and check its sha256
  --json                     print the report as JSON
  -h, --help
`;

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      "data-dir": { type: "string" },
      table: { type: "string" },
      bucket: { type: "string" },
      region: { type: "string" },
      "dynamodb-endpoint": { type: "string" },
      "s3-endpoint": { type: "string" },
      fix: { type: "boolean" },
      grace: { type: "string" },
      "verify-archives": { type: "boolean" },
      json: { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  const graceSeconds = values.grace === undefined ? undefined : Number(values.grace);
  if (graceSeconds !== undefined && !(Number.isSafeInteger(graceSeconds) && graceSeconds >= 0))
    throw new Error(`--grace must be a whole number of seconds, got "${values.grace}"`);
  const { runDoctor } = await import("./run-doctor.js");
  const { formatReport } = await import("./print-report.js");
  const { unresolved } = await import("./doctor-report.js");
  const options = {
    fix: values.fix ?? false,
    verifyArchives: values["verify-archives"] ?? false,
    ...(graceSeconds === undefined ? {} : { graceSeconds }),
  };

  const report = await withStorage(values, (deps) => runDoctor(deps, options));
  process.stdout.write(values.json ? `${JSON.stringify(report, null, 2)}\n` : formatReport(report));
  return unresolved(report).length === 0 ? 0 : 1;
}

type Values = {
  "data-dir"?: string;
  table?: string;
  bucket?: string;
  region?: string;
  "dynamodb-endpoint"?: string;
  "s3-endpoint"?: string;
};

async function withStorage<T>(values: Values, use: (deps: import("./run-doctor.js").DoctorDeps) => Promise<T>): Promise<T> {
  const { createRegistryDeps } = await import("../registry-deps.js");
  const { rejectAllTokens } = await import("../auth/token-verifier.js");
  const { loadConfig } = await import("../config.js");
  if (values["data-dir"] !== undefined) {
    if (values.table !== undefined || values.bucket !== undefined) throw new Error("give either --data-dir or --table/--bucket, not both");
    const { openLocalStorage } = await import("../local/open-local-storage.js");
    const storage = await openLocalStorage(values["data-dir"]);
    try {
      return await use(createRegistryDeps(storage.config, rejectAllTokens));
    } finally {
      await storage.close();
    }
  }
  if (values.table === undefined || values.bucket === undefined)
    throw new Error("give --data-dir <dir>, or --table and --bucket of a deployed stack (see --help)");
  const env: Record<string, string | undefined> = { ...process.env, TABLE_NAME: values.table, BUCKET_NAME: values.bucket };
  if (values.region !== undefined) env.AWS_REGION = values.region;
  if (values["dynamodb-endpoint"] !== undefined) env.DYNAMODB_ENDPOINT = values["dynamodb-endpoint"];
  if (values["s3-endpoint"] !== undefined) env.S3_ENDPOINT = values["s3-endpoint"];
  const config: RegistryConfig = loadConfig(env);
  return use(createRegistryDeps(config, rejectAllTokens));
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`doctor failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(2);
  },
);
