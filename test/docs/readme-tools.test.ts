import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ExternalTool, FunctionTool, PermissionBehavior, PermissionEngine, ToolBase, ToolChunk, Toolkit } from "@agent-tools/sdk";
import { collect, find } from "../sdk/permission/support/events.js";

// The "Writing tools in TypeScript" snippet of docs/permissions.md, verbatim in substance, with its claims checked.
const weather = new FunctionTool(async ({ city }: { city: string }) => `Sunny in ${city}`, {
  name: "get_weather",
  description: "Current weather for a city.",
  inputSchema: z.object({ city: z.string().describe("The city name") }),
});

const approval = new ExternalTool({
  name: "HumanApproval",
  description: "Ask a human to approve an action.",
  inputSchema: { type: "object", properties: { action: { type: "string" } }, required: ["action"] },
});

class Deploy extends ToolBase<{ target: string }> {
  readonly name = "Deploy";
  readonly description = "Deploy the app to a target.";
  readonly inputSchema = { type: "object" as const, properties: { target: { type: "string" } }, required: ["target"] };
  checkPermissions({ target }: { target: string }) {
    return target.startsWith("prod")
      ? { behavior: PermissionBehavior.ASK, message: "Production deploy", bypassImmune: true }
      : { behavior: PermissionBehavior.PASSTHROUGH, message: "Deploy to a test target" };
  }
  override matchRule(content: string | undefined, input: { target: string }) {
    return !content || content === input.target;
  }
  override call({ target }: { target: string }) {
    return ToolChunk.text(`deployed to ${target}`);
  }
}

describe("the tool examples of docs/permissions.md", () => {
  it("a production deploy asks even with an allow rule; a test deploy runs on it", async () => {
    const engine = new PermissionEngine({ allow: ["Deploy"] });
    const deploy = new Deploy();
    expect(await engine.checkPermission(deploy, { target: "prod-eu" })).toMatchObject({
      behavior: "ask",
      message: "Production deploy",
      bypassImmune: true,
    });
    expect((await engine.checkPermission(deploy, { target: "staging" })).behavior).toBe("allow");
    expect((await new PermissionEngine({ allow: ["Deploy(staging)"] }).checkPermission(deploy, { target: "qa" })).behavior).toBe("ask");
  });

  it("the zod FunctionTool and the external tool run through a Toolkit", async () => {
    const toolkit = new Toolkit({ tools: [weather, approval, new Deploy()], engine: new PermissionEngine({ allow: ["get_weather"] }) });
    expect(toolkit.getSchemas()[0]!.function.parameters).toMatchObject({
      properties: { city: { type: "string", description: "The city name" } },
      required: ["city"],
    });
    const events = await collect(
      toolkit.createExecutor().run([
        { id: "w", name: "get_weather", input: { city: "Oslo" } },
        { id: "h", name: "HumanApproval", input: { action: "deploy" } },
      ]),
    );
    expect(find(events, "tool_result_end", "w").response.text).toBe("Sunny in Oslo");
    expect(find(events, "require_external_execution").toolCalls[0]!.id).toBe("h");
  });
});
