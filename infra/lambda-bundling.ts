import { fileURLToPath } from "node:url";

/**
 * The three Lambda entry points and how they are bundled. One definition serves the stack
 * (`NodejsFunction` bundling) and the bundle-size benchmark (plain esbuild), so the measured
 * bundle is the deployed one.
 */
export const REGISTRY_FUNCTIONS = ["upload", "fetch", "search"] as const;
export type RegistryFunctionName = (typeof REGISTRY_FUNCTIONS)[number];

export const PROJECT_ROOT = fileURLToPath(new URL("..", import.meta.url));

export function lambdaEntry(name: RegistryFunctionName): string {
  return fileURLToPath(new URL(`../functions/lambda/${name}.ts`, import.meta.url));
}

/** esbuild settings shared by the stack and the benchmark. */
export const LAMBDA_BUNDLE = {
  format: "esm",
  platform: "node",
  target: "node22",
  minify: true,
  sourcemap: false,
  /** The Node.js 22 runtime ships AWS SDK v3; bundling it would add megabytes and cold-start time. */
  external: ["@aws-sdk/*"],
  mainFields: ["module", "main"],
  /** ESM output still meets CommonJS dependencies that call `require`. Aliased: fflate's ESM build imports `createRequire` itself. */
  banner: "import { createRequire as bannerCreateRequire } from 'module'; const require = bannerCreateRequire(import.meta.url);",
} as const;
