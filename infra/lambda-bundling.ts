import type { BuildOptions } from "esbuild";
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

/**
 * The esbuild options of `NodejsFunction` for one entry point, for building a function's bundle
 * outside CDK (the bundle benchmark, the test that runs the bundles in a fresh Node): what the
 * stack passes through `bundling` in `registry-function.ts`, in esbuild's own terms.
 */
export function lambdaBuildOptions(name: string, outfile: string, external: readonly string[] = LAMBDA_BUNDLE.external): BuildOptions {
  return {
    entryPoints: [lambdaEntry(name)],
    outfile,
    bundle: true,
    format: LAMBDA_BUNDLE.format,
    platform: LAMBDA_BUNDLE.platform,
    target: LAMBDA_BUNDLE.target,
    minify: LAMBDA_BUNDLE.minify,
    sourcemap: LAMBDA_BUNDLE.sourcemap,
    external: [...external],
    mainFields: [...LAMBDA_BUNDLE.mainFields],
    banner: { js: LAMBDA_BUNDLE.banner },
    logLevel: "silent",
  };
}
