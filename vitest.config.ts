import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const sdkSource = (path: string) => fileURLToPath(new URL(`./sdk/src/${path}`, import.meta.url));

export default defineConfig({
  resolve: {
    // Tests run the SDK's TypeScript source; a separate test checks the built package with plain node.
    alias: [
      { find: /^@agent-tools\/sdk\/archive$/, replacement: sdkSource("archive/index.ts") },
      { find: /^@agent-tools\/sdk\/skill-manifest$/, replacement: sdkSource("skills/skill-manifest.ts") },
      { find: /^@agent-tools\/sdk\/capabilities$/, replacement: sdkSource("sandbox/capabilities/index.ts") },
      { find: /^@agent-tools\/sdk\/tool-spec$/, replacement: sdkSource("tool-spec/index.ts") },
      { find: /^@agent-tools\/sdk$/, replacement: sdkSource("index.ts") },
    ],
  },
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // s3rver builds list continuation tokens with DES, which OpenSSL 3 refuses without this.
    execArgv: ["--openssl-legacy-provider"],
    // Lambda handlers log and emit EMF through Powertools; tests that check that output turn it back on.
    env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true", POWERTOOLS_LOG_LEVEL: "SILENT", POWERTOOLS_METRICS_DISABLED: "true" },
    reporters: ["default", "json"],
    outputFile: { json: ".vitest-report.json" },
  },
});
