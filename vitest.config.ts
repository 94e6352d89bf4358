import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

/**
 * Tests run the SDK's TypeScript source: each subpath of the package's `exports` maps to the
 * source of its built entry (`./dist/x.js` → `sdk/src/x.ts`). A separate test checks the built
 * package with plain node.
 */
const sdkExports = (
  JSON.parse(readFileSync(new URL("./sdk/package.json", import.meta.url), "utf8")) as { exports: Record<string, { default: string }> }
).exports;
const sdkAliases = Object.entries(sdkExports).map(([subpath, target]) => ({
  find: new RegExp(`^@agent-tools/sdk${subpath.slice(1).replace(/[/-]/g, "\\$&")}$`),
  replacement: fileURLToPath(new URL(target.default.replace(/^\.\/dist\//, "./sdk/src/").replace(/\.js$/, ".ts"), import.meta.url)),
}));

export default defineConfig({
  resolve: { alias: sdkAliases },
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
