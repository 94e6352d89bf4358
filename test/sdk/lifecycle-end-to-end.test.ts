/**
 * The SDK against the registry's own lifecycle routes, end to end: a publisher deprecates and
 * yanks versions with `PATCH /tools/{id}/versions/{v}` (docs/design/publisher-trust.md), and
 * `AgentTools` warns, skips or refuses accordingly. No proxy: what the registry stores is what the
 * SDK reads.
 */
import { describe, expect, it } from "vitest";
import { AgentTools, ToolNotFoundError, type ToolWarning } from "@agent-tools/sdk";
import { registryForFile } from "../support/registry-for-file.js";
import { publishVersionAnswering } from "./support/version-answering-tool.js";

const suite = registryForFile();
const { tempDirs } = suite;

async function publish(toolId: string, version: string): Promise<void> {
  await publishVersionAnswering(suite.registry, toolId, version);
}

async function setStatus(toolId: string, version: string, body: Record<string, string>): Promise<void> {
  const response = await fetch(`${suite.registry.url}/tools/${toolId}/versions/${version}`, {
    method: "PATCH",
    headers: { authorization: `Bearer ${suite.registry.token}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  expect(response.status, await response.clone().text()).toBe(200);
}

async function agent(options: ConstructorParameters<typeof AgentTools>[0] = {}) {
  const warnings: ToolWarning[] = [];
  const tools = new AgentTools({
    toolsDbUrl: suite.registry.url,
    cacheDir: await tempDirs.make("agent-tools-e2e-"),
    sandbox: "off",
    onWarning: (warning) => warnings.push(warning),
    ...options,
  });
  return { tools, warnings };
}

describe("version lifecycle through the registry's routes", () => {
  it("warns on a deprecated latest, skips a yanked one, and runs a yanked one only when pinned exactly", async () => {
    await publish("lifecycle-e2e", "1.0.0");
    await publish("lifecycle-e2e", "1.1.0");
    await setStatus("lifecycle-e2e", "1.1.0", { status: "deprecated", message: "use 2.x" });
    const first = await agent();
    expect(await first.tools.add("lifecycle-e2e")).toMatchObject({ version: "1.1.0" });
    expect(first.warnings.map((warning) => warning.code)).toEqual(["TOOL_DEPRECATED"]);
    expect(first.warnings[0]?.message).toContain("is deprecated: use 2.x.");
    await first.tools.close();

    await setStatus("lifecycle-e2e", "1.1.0", { status: "yanked", reason: "reads ~/.ssh" });
    const second = await agent();
    expect(await second.tools.add("lifecycle-e2e")).toMatchObject({ version: "1.0.0" });
    expect(await second.tools.executeToolById("lifecycle-e2e", {})).toBe("1.0.0");
    expect(await second.tools.add("lifecycle-e2e@1.1.0")).toMatchObject({ version: "1.1.0" });
    expect(second.warnings.map((warning) => warning.code)).toEqual(["TOOL_YANKED"]);
    await second.tools.close();

    const aged = await agent({ minReleaseAgeHours: 0 });
    expect(await aged.tools.add("lifecycle-e2e")).toMatchObject({ version: "1.0.0" });
    await aged.tools.close();
  });

  it("says so when every version is yanked", async () => {
    await publish("all-yanked-e2e", "1.0.0");
    await setStatus("all-yanked-e2e", "1.0.0", { status: "yanked", reason: "broken" });
    const { tools } = await agent();
    await expect(tools.add("all-yanked-e2e")).rejects.toBeInstanceOf(ToolNotFoundError);
    const aged = await agent({ minReleaseAgeHours: 0 });
    await expect(aged.tools.add("all-yanked-e2e")).rejects.toMatchObject({ code: "NO_RELEASE_OLD_ENOUGH" });
    await tools.close();
    await aged.tools.close();
  });
});
