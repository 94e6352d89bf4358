/**
 * Synthesises the registry stack for template assertions into a temp folder (no `cdk.out`
 * leftovers). Bundling is skipped unless asked for: the template is the same either way.
 */
import { App } from "aws-cdk-lib";
import { Template } from "aws-cdk-lib/assertions";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createRegistryApp } from "../../infra/registry-app.js";
import type { RegistryStack } from "../../infra/registry-stack.js";

export interface SynthesizedStack {
  stack: RegistryStack;
  template: Template;
  outdir: string;
  /** Removes the synthesis folder. */
  cleanup(): void;
}

export function synthStack(context: Record<string, unknown> = {}, options: { bundle?: boolean } = {}): SynthesizedStack {
  const outdir = mkdtempSync(join(tmpdir(), "agent-tools-cdk-"));
  try {
    const app = new App({ outdir, context: { ...(options.bundle ? {} : { "aws:cdk:bundling-stacks": [] }), ...context } });
    const { stack } = createRegistryApp(app);
    return { stack, template: Template.fromStack(stack), outdir, cleanup: () => rmSync(outdir, { recursive: true, force: true }) };
  } catch (error) {
    rmSync(outdir, { recursive: true, force: true });
    throw error;
  }
}
