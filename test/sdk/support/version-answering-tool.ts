import { expect } from "vitest";
import { buildBundle, readFixtureSpec, zipFiles } from "../../support/bundles.js";
import { uploadBundle, type TestRegistry } from "../../support/registry.js";

/**
 * Publishes `toolId@version`: the text-stats spec (with `spec` merged over it) and a Python tool
 * whose `execute` answers its own version, so a test sees which version ran.
 */
/** It answers its version whatever it is given, and its schema says so (inputs are checked against it before a call). */
export const ANY_INPUT = { entrypoints: { execute: { input: { type: "object", properties: {} } } } };

export async function publishVersionAnswering(
  registry: TestRegistry,
  toolId: string,
  version: string,
  spec: Record<string, unknown> = {},
): Promise<void> {
  const fullSpec = { ...readFixtureSpec("text-stats"), tool_id: toolId, tool_metadata: { version }, tool_api_spec: ANY_INPUT, ...spec };
  const code =
    `class AgentSpaceV1Tool:\n    def __init__(self, tool_id, tool_data):\n        ` +
    `pass\n\n    def execute(self, input_data):\n        return ${JSON.stringify(version)}\n`;
  const bundle = buildBundle({ spec: fullSpec, toolZip: zipFiles({ "code/function.py": code }), toolMd: `# ${toolId}` });
  const result = await uploadBundle(registry.url, registry.token, bundle);
  expect(result.status, JSON.stringify(result.body)).toBe(200);
}
