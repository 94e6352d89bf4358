// The registry keeps the SDK's tool names for the SDK (docs/permissions.md#one-namespace-for-tools): an
// upload whose tool id would be named like a built-in in a Toolkit is 422 saying why, case-insensitively,
// and leaves storage as it was; ids that merely look alike publish.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildBundle, buildPythonToolZip, FIXTURE_TOOLS_DIR, readFixtureSpec } from "../../support/bundles.js";
import { startTestRegistry, uploadBundle, type TestRegistry } from "../../support/registry.js";
import { storageSnapshot } from "../storage/storage-snapshot.js";

let registry: TestRegistry;
const spec = readFixtureSpec("text-stats");
const toolZip = buildPythonToolZip(join(FIXTURE_TOOLS_DIR, "text-stats"));
const toolMd = readFileSync(join(FIXTURE_TOOLS_DIR, "text-stats/tool.md"), "utf8");
const upload = (toolId: string) =>
  uploadBundle(registry.url, registry.token, buildBundle({ spec: { ...spec, tool_id: toolId }, toolZip, toolMd }));

beforeAll(async () => {
  registry = await startTestRegistry();
});
afterAll(async () => {
  await registry?.close();
});

/** Hostile ids, with what the detail must name: the reserved name it collides with, and whose it is. */
const REFUSED: { toolId: string; mentions: RegExp }[] = [
  { toolId: "Read", mentions: /is reserved, case-insensitively, for the built-in file reader \(Read\)/ },
  { toolId: "read", mentions: /for the built-in file reader \(Read\)/ },
  { toolId: "BASH", mentions: /for the built-in shell tool \(Bash\)/ },
  { toolId: "Capability", mentions: /sandbox capability requests are decided under/ },
  { toolId: "ToolDefinition", mentions: /changed definition is asked about/ },
  { toolId: "skill", mentions: /the skill viewer \(Skill\)/ },
  { toolId: "reset.tools", mentions: /its name in a Toolkit is "reset_tools"\) is reserved/ },
  { toolId: "mcp__files__write_file", mentions: /starts with a reserved prefix, case-insensitively: MCP servers' tools/ },
  { toolId: "MCP__x", mentions: /starts with a reserved prefix/ },
  { toolId: "mcp._files", mentions: /its name in a Toolkit is "mcp__files"\) starts with a reserved prefix/ },
];

describe("POST /tools/upload refuses tool ids named like the SDK's own tools", () => {
  for (const { toolId, mentions } of REFUSED) {
    it(toolId, async () => {
      const before = await storageSnapshot(registry.local);
      const answer = await upload(toolId);
      expect(answer.status, JSON.stringify(answer.body)).toBe(422);
      expect(answer.body.error).toBe("Failed to process tool package");
      expect(String(answer.body.detail)).toMatch(new RegExp(`^tool_id "${toolId.replace(/[.]/g, "\\.")}" is refused: `));
      expect(String(answer.body.detail)).toMatch(mentions);
      expect(String(answer.body.detail)).toMatch(/Choose another id, e\.g\. "acme-[^"]+"\.$/);
      expect(await storageSnapshot(registry.local)).toEqual(before);
    });
  }

  it("publishes ids that only look alike", async () => {
    for (const toolId of ["reader", "Read-me", "mcp-files", "mcp_files", "bash2", "skills"]) {
      const answer = await upload(toolId);
      expect(answer.status, `${toolId}: ${JSON.stringify(answer.body)}`).toBe(200);
    }
  });
});
