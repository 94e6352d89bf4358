import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ExternalTool, FunctionTool, PermissionEngine, ToolChunk, ToolError, ToolResponse, ToolResultState } from "@agent-tools/sdk";
import { addTool } from "../permission/support/add-tool.js";

async function run(tool: { invoke(input: any): AsyncIterable<ToolChunk> }, input: Record<string, unknown>) {
  const chunks: ToolChunk[] = [];
  for await (const chunk of tool.invoke(input)) chunks.push(chunk);
  return chunks;
}

describe("FunctionTool", () => {
  it("takes name, description and JSON Schema from options; fn receives the input object", async () => {
    const add = addTool();
    expect(add.name).toBe("add");
    expect(add.inputSchema.required).toEqual(["a", "b"]);
    expect(add.isConcurrencySafe).toBe(true);
    expect(add.isReadOnly).toBe(false);
    const chunks = await run(add, { a: 2, b: 3 });
    expect(ToolResponse.fromChunks("c", chunks).text).toBe("5");
  });

  it("defaults the name to the function's name and needs one", () => {
    function getWeather() {
      return "sunny";
    }
    expect(new FunctionTool(getWeather).name).toBe("getWeather");
    expect(() => new FunctionTool(() => 1)).toThrow(ToolError);
  });

  it("warns once per name when the model would see no description or no parameters, naming what it sees", () => {
    const warnings: string[] = [];
    const onWarning = (message: string) => warnings.push(message);
    new FunctionTool(({ city }: { city: string }) => city, { name: "lookup_city", onWarning });
    new FunctionTool(({ city }: { city: string }) => city, { name: "lookup_city", onWarning });
    expect(warnings).toEqual([
      'FunctionTool "lookup_city": the model will see a function with no description and no parameters ' +
        '({"type":"object","properties":{}}), so it cannot tell what the tool does or what to pass. Pass { description } ' +
        'and { inputSchema } (a JSON Schema or a zod object), or { undescribed: "allow" } when that is intended.',
    ]);
    new FunctionTool(() => 1, { name: "described_only", description: "Counts.", onWarning });
    new FunctionTool(() => 1, { name: "schema_only", inputSchema: z.object({ n: z.number() }), onWarning });
    expect(warnings.slice(1).map((message) => message.split(", so")[0])).toEqual([
      'FunctionTool "described_only": the model will see a function with no parameters ({"type":"object","properties":{}})',
      'FunctionTool "schema_only": the model will see a function with no description',
    ]);
    // Described and given a schema (an empty one on purpose included), or allowed: nothing to say.
    new FunctionTool(() => 1, { name: "clock", description: "Now.", inputSchema: { type: "object", properties: {} }, onWarning });
    new FunctionTool(() => 1, { name: "quiet", undescribed: "allow", onWarning });
    expect(warnings).toHaveLength(3);
  });

  it('refuses an undescribed function with { undescribed: "refuse" }, and an unknown policy', () => {
    const refused = (() => {
      try {
        new FunctionTool(() => 1, { name: "strict_fn", description: "  ", undescribed: "refuse" });
      } catch (error) {
        return error as ToolError;
      }
    })();
    expect(refused).toBeInstanceOf(ToolError);
    expect(refused).toMatchObject({ code: "TOOL_UNDESCRIBED", message: expect.stringContaining("no description and no parameters") });
    expect(
      () => new FunctionTool(() => 1, { name: "described", description: "x", inputSchema: z.object({}), undescribed: "refuse" }),
    ).not.toThrow();
    expect(() => new FunctionTool(() => 1, { name: "odd", undescribed: "loud" as "warn" })).toThrow(
      /undescribed must be "warn", "refuse" or "allow", got "loud"/,
    );
  });

  it("derives the JSON Schema from a zod object and parses the input with it", async () => {
    const tool = new FunctionTool(({ city, unit }: { city: string; unit: string }) => `${city} in ${unit}`, {
      name: "weather",
      inputSchema: z.object({ city: z.string().describe("The city"), unit: z.enum(["c", "f"]).default("c") }),
    });
    expect(tool.inputSchema).toMatchObject({
      type: "object",
      properties: { city: { type: "string", description: "The city" }, unit: { enum: ["c", "f"], default: "c" } },
      required: ["city"],
    });
    expect(tool.inputSchema["$schema"]).toBeUndefined();
    expect(ToolResponse.fromChunks("c", await run(tool, { city: "Oslo" })).text).toBe("Oslo in c");
    expect(() => new FunctionTool(() => 1, { name: "bad", inputSchema: z.string() })).toThrow(/must describe an object/);
  });

  it("turns return values into chunks: string, JSON, ToolChunk, and generators streamed", async () => {
    const json = new FunctionTool(() => ({ ok: [1, 2] }), { name: "json" });
    expect(ToolResponse.fromChunks("c", await run(json, {})).text).toBe('{"ok":[1,2]}');
    const chunk = new FunctionTool(() => ToolChunk.error("bad"), { name: "chunk" });
    expect(ToolResponse.fromChunks("c", await run(chunk, {})).state).toBe(ToolResultState.ERROR);
    const stream = new FunctionTool(
      async function* () {
        yield "a";
        yield "b";
      },
      { name: "stream" },
    );
    const chunks = await run(stream, {});
    expect(chunks.map((c) => (c.content[0] as { text: string }).text)).toEqual(["a", "b"]);
    expect(ToolResponse.fromChunks("c", chunks).text).toBe("ab");
  });

  it("asks by default: an allow rule or BYPASS lets it run, DONT_ASK denies it", async () => {
    const tool = new FunctionTool(() => 1, { name: "fn" });
    const ask = await new PermissionEngine().checkPermission(tool, {});
    expect(ask.behavior).toBe("ask");
    expect((await new PermissionEngine({ allow: ["fn"] }).checkPermission(tool, {})).behavior).toBe("allow");
    expect((await new PermissionEngine({ mode: "bypass" }).checkPermission(tool, {})).behavior).toBe("allow");
    expect((await new PermissionEngine({ mode: "dont_ask" }).checkPermission(tool, {})).behavior).toBe("deny");
    expect((await new PermissionEngine({ mode: "explore" }).checkPermission(tool, {})).behavior).toBe("deny");
    const readOnly = new FunctionTool(() => 1, { name: "peek", isReadOnly: true });
    expect((await new PermissionEngine({ mode: "explore" }).checkPermission(readOnly, {})).behavior).toBe("allow");
  });
});

describe("ToolResponse accumulation", () => {
  it("extends blocks by id, merges consecutive text and re-encodes base64", () => {
    const response = new ToolResponse("call-9");
    response.append(new ToolChunk({ content: [{ type: "text", text: "he", id: "t" }] }));
    response.append(new ToolChunk({ content: [{ type: "text", text: "llo", id: "t" }] }));
    response.append(new ToolChunk({ content: [{ type: "text", text: " world" }] }));
    response.append(
      new ToolChunk({
        content: [
          { type: "data", id: "d", source: { type: "base64", mediaType: "text/plain", data: Buffer.from("ab").toString("base64") } },
        ],
      }),
    );
    response.append(
      new ToolChunk({
        content: [
          { type: "data", id: "d", source: { type: "base64", mediaType: "text/plain", data: Buffer.from("cd").toString("base64") } },
        ],
        metadata: { rows: 2 },
      }),
    );
    expect(response.id).toBe("call-9");
    expect(response.content).toHaveLength(2);
    expect(response.text).toBe("hello world");
    const data = response.content[1];
    expect(data?.type === "data" && data.source.type === "base64" && Buffer.from(data.source.data, "base64").toString()).toBe("abcd");
    expect(response.metadata).toEqual({ rows: 2 });
    expect(response.state).toBe(ToolResultState.SUCCESS);
  });

  it("refuses to stream a URL block in pieces", () => {
    const url = new ToolChunk({ content: [{ type: "data", id: "u", source: { type: "url", url: "http://x/a" } }] });
    const response = new ToolResponse("c").append(url);
    expect(() => response.append(url)).toThrow(/cannot be streamed/);
  });

  it("lets ERROR beat INTERRUPTED beat DENIED, and RUNNING change nothing", () => {
    const states = (...list: ToolResultState[]) =>
      ToolResponse.fromChunks(
        "c",
        list.map((state) => new ToolChunk({ state })),
      ).state;
    expect(states("running")).toBe("success");
    expect(states("denied", "running")).toBe("denied");
    expect(states("denied", "interrupted")).toBe("interrupted");
    expect(states("error", "interrupted", "denied", "success")).toBe("error");
  });
});

describe("ExternalTool", () => {
  it("has no call(), allows its own dispatch, and still obeys deny rules", async () => {
    const approval = new ExternalTool({
      name: "HumanApproval",
      description: "Ask a human.",
      inputSchema: { type: "object", properties: { action: { type: "string" } }, required: ["action"] },
    });
    expect(approval.isExternalTool).toBe(true);
    await expect(run(approval, { action: "x" })).rejects.toThrow(/has no call\(\) implementation/);
    expect((await new PermissionEngine().checkPermission(approval, { action: "x" })).behavior).toBe("allow");
    expect((await new PermissionEngine({ deny: ["HumanApproval"] }).checkPermission(approval, {})).behavior).toBe("deny");
  });
});
