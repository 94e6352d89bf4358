import { fileURLToPath } from "node:url";

/**
 * How the Lambda entry points are bundled. One definition serves the stack (`NodejsFunction`
 * bundling) and the bundle-size benchmark (plain esbuild), so the measured bundle is the deployed one.
 */
export const PROJECT_ROOT = fileURLToPath(new URL("..", import.meta.url));

/** The entry point of a function of `REGISTRY_FUNCTIONS` (`registry-functions.ts`). */
export function lambdaEntry(name: string): string {
  return fileURLToPath(new URL(`../functions/lambda/${name}.ts`, import.meta.url));
}

/** esbuild settings shared by the stack and the benchmark. */
export const LAMBDA_BUNDLE = {
  format: "esm",
  platform: "node",
  target: "node24",
  minify: true,
  sourcemap: false,
  /**
   * Nothing external: the AWS SDK is bundled at the versions pinned in package-lock.json and tested
   * here, instead of whatever version the runtime ships that day; tree-shaking keeps only the
   * commands each function calls, so search carries no S3 code at all.
   */
  external: [] as string[],
  mainFields: ["module", "main"],
  /** ESM output still meets CommonJS dependencies that call `require`. Aliased: fflate's ESM build imports `createRequire` itself. */
  banner: "import { createRequire as bannerCreateRequire } from 'module'; const require = bannerCreateRequire(import.meta.url);",
} as const;
