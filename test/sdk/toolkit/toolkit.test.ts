import { describe, expect, it } from "vitest";
import { FunctionTool, PermissionEngine, Toolkit, type ToolChunk, ToolkitError, type ToolCall } from "@agent-tools/sdk";
import { addTool } from "../permission/support/add-tool.js";
import { collect, find, summary } from "../permission/support/events.js";
import { ProbeTool } from "../permission/support/probe-tool.js";

const add = addTool;
const call = (id: string, name: string, input: ToolCall["input"]): ToolCall => ({ id, name, input });

describe("Toolkit: tools, groups and schemas", () => {
  it("gives OpenAI function-calling schemas of the available tools", () => {
    const toolkit = new Toolkit({ tools: [add()] });
    expect(toolkit.getSchemas()).toEqual([
      {
        type: "function",
        function: {
          name: "add",
          description: "Add two numbers.",
          parameters: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] },
        },
      },
    ]);
  });

  it("activates groups through reset_tools, whose arguments are the final state", async () => {
    const toolkit = new Toolkit({
      tools: [add()],
      groups: [
        {
          name: "web",
          description: "Browse the web.",
          tools: [new ProbeTool({ name: "Fetch" })],
          instructions: "Fetch one page at a time.",
        },
        { name: "db", description: "Query the database.", tools: [new ProbeTool({ name: "Query" })] },
      ],
      engine: new PermissionEngine({ allow: ["Fetch"] }),
    });
    expect(toolkit.getSchemas().map((s) => s.function.name)).toEqual(["reset_tools", "add"]);
    const resetSchema = toolkit.getTool("reset_tools")!.inputSchema;
    expect(resetSchema.properties).toEqual({
      web: { type: "boolean", description: "Browse the web.", default: false },
      db: { type: "boolean", description: "Query the database.", default: false },
    });

    const executor = toolkit.createExecutor();
    const before = await collect(executor.run([call("c1", "Fetch", {})]));
    expect(find(before, "tool_error", "c1").response.text).toBe(
      "ToolGroupInactiveError: The tool 'Fetch' in group 'web' is currently inactive. " +
        "You should first activate the group by calling the 'reset_tools' tool.",
    );

    const reset = await collect(executor.run([call("c2", "reset_tools", { web: true })]));
    const reply = find(reset, "tool_result_end", "c2").response.text;
    expect(reply).toContain("Activated tool groups: web.");
    expect(reply).toContain('<tool-instructions>\n<group name="web">\nFetch one page at a time.\n</group>\n</tool-instructions>');
    expect(toolkit.activeGroups).toEqual(["web"]);
    expect(toolkit.getSchemas().map((s) => s.function.name)).toEqual(["reset_tools", "add", "Fetch"]);

    const after = await collect(executor.run([call("c3", "Fetch", { target: "x" })]));
    expect(find(after, "tool_result_end", "c3").response.text).toBe("probed x");

    const off = await collect(executor.run([call("c4", "reset_tools", { db: true })]));
    expect(find(off, "tool_result_end", "c4").response.text).toContain("Activated tool groups: db.");
    expect(toolkit.activeGroups).toEqual(["db"]);

    const unknown = await collect(executor.run([call("c5", "reset_tools", { mail: true })]));
    expect(find(unknown, "tool_error", "c5").response.text).toMatch(/does not match its schema.*additional properties \(mail\)/);
  });

  it("refuses a group named basic and duplicate group names", () => {
    expect(() => new Toolkit({ groups: [{ name: "basic", description: "", tools: [] }] })).toThrow(ToolkitError);
    expect(
      () =>
        new Toolkit({
          groups: [
            { name: "g", description: "", tools: [] },
            { name: "g", description: "", tools: [] },
          ],
        }),
    ).toThrow(/unique/);
  });

  it("injects the agent state into state-injected tools only", async () => {
    const seen: boolean[] = [];
    const stateful = new FunctionTool(
      (_input, context) => {
        seen.push(context.state !== undefined);
        if (context.state) context.state.slot("counter", () => ({ n: 0 })).n += 1;
        return "ok";
      },
      { name: "stateful", isStateInjected: true },
    );
    const plain = new FunctionTool(
      (_input, context) => {
        seen.push(context.state !== undefined);
        return "ok";
      },
      { name: "plain" },
    );
    const toolkit = new Toolkit({ tools: [stateful, plain], engine: new PermissionEngine({ allow: ["stateful", "plain"] }) });
    await collect(toolkit.createExecutor().run([call("a", "stateful", {}), call("b", "plain", {}), call("c", "stateful", {})]));
    expect(seen).toEqual([true, false, true]);
    expect(toolkit.state.slot("counter", () => ({ n: 0 })).n).toBe(2);
  });
});

describe("ToolCallExecutor: bad input becomes an error result", () => {
  const toolkit = () => new Toolkit({ tools: [add()], engine: new PermissionEngine({ allow: ["add"] }) });

  it("unknown tool, bad JSON, non-object and schema failures", async () => {
    const events = await collect(
      toolkit()
        .createExecutor()
        .run([
          call("u", "nope", {}),
          call("j", "add", "{not json"),
          call("o", "add", "[1,2]"),
          call("s", "add", { a: "two" }),
          call("ok", "add", '{"a":2,"b":3}'),
        ]),
    );
    expect(find(events, "tool_error", "u").response.text).toBe("ToolNotFoundError: The tool named 'nope' doesn't exist.");
    expect(find(events, "tool_error", "j").response.text).toMatch(/not valid JSON/);
    expect(find(events, "tool_error", "o").response.text).toMatch(/must be a JSON object/);
    const schema = find(events, "tool_error", "s");
    expect(schema.response.text).toContain("/a must be number");
    expect(schema.response.text).toContain("input must have required property 'b'");
    expect(schema.response.state).toBe("error");
    expect(schema.error.code).toBe("TOOL_CALL_INPUT_INVALID");
    expect(find(events, "tool_result_end", "ok").response.text).toBe("5");
  });

  it("a throwing middleware and a tool throwing mid-stream end in error results", async () => {
    // biome-ignore lint/correctness/useYield: a middleware that throws before its first chunk.
    const broken = add().use(async function* () {
      throw new Error("middleware exploded");
    });
    const midStream = new FunctionTool(
      async function* () {
        yield "partial ";
        throw new Error("disk vanished");
      },
      { name: "stream" },
    );
    const kit = new Toolkit({ tools: [broken, midStream], engine: new PermissionEngine({ mode: "bypass" }) });
    const events = await collect(kit.createExecutor().run([call("m", "add", { a: 1, b: 1 }), call("t", "stream", {})]));
    const middleware = find(events, "tool_result_end", "m").response;
    expect(middleware.state).toBe("error");
    expect(middleware.text).toBe("Error: middleware exploded");
    const stream = find(events, "tool_result_end", "t").response;
    expect(stream.state).toBe("error");
    expect(stream.text).toBe("partial Error: disk vanished");
  });

  it("a permission check that throws becomes an error result", async () => {
    class Faulty extends ProbeTool {
      override checkPermissions(): never {
        throw new Error("policy service down");
      }
    }
    const kit = new Toolkit({ tools: [new Faulty({ name: "Faulty" })] });
    const events = await collect(kit.createExecutor().run([call("f", "Faulty", {})]));
    expect(find(events, "tool_error", "f").response.text).toBe(
      'PermissionCheckError: checking permission for "Faulty" failed: Error: policy service down',
    );
  });

  it("an engine DENY ends the call with the decision", async () => {
    const kit = new Toolkit({ tools: [add()], engine: new PermissionEngine({ deny: ["add"] }) });
    const events = await collect(kit.createExecutor().run([call("d", "add", { a: 1, b: 2 })]));
    const denied = find(events, "tool_denied", "d");
    expect(denied.response.state).toBe("denied");
    expect(denied.response.text).toBe("Permission to use add has been denied");
    expect(denied.decision?.reason).toBe("Rule: add");
    expect(denied.byUser).toBe(false);
  });

  it("an interrupted call ends INTERRUPTED", async () => {
    const controller = new AbortController();
    const hang = new FunctionTool(
      async function* () {
        yield "started";
        controller.abort();
        await new Promise(() => {});
      },
      { name: "hang" },
    );
    const kitWithUnsafe = new Toolkit({
      tools: [hang, new ProbeTool({ name: "Later" })],
      engine: new PermissionEngine({ mode: "bypass" }),
    });
    const events = await collect(
      kitWithUnsafe.createExecutor({ signal: controller.signal }).run([call("h", "hang", {}), call("l", "Later", {})]),
    );
    const response = find(events, "tool_result_end", "h").response;
    expect(response.state).toBe("interrupted");
    expect(response.text).toBe("started<system-reminder>The tool call has been interrupted by the user.</system-reminder>");
    // The call after it never starts.
    expect(summary(events)).toEqual(["tool_result_start:h", "tool_result_end:h", "tool_result_end:l"]);
    expect(find(events, "tool_result_end", "l").response.state).toBe("interrupted");
  });
});

describe("ToolCallExecutor: confirmation round trip", () => {
  it("asks with suggestions, runs on confirm, remembers the rules", async () => {
    const engine = new PermissionEngine();
    const kit = new Toolkit({ tools: [add()], engine });
    const executor = kit.createExecutor();
    const first = await collect(executor.run([call("c1", "add", { a: 1, b: 2 })]));
    expect(summary(first)).toEqual(["require_user_confirm:c1"]);
    const request = find(first, "require_user_confirm").toolCalls[0]!;
    expect(request).toMatchObject({
      name: "add",
      input: { a: 1, b: 2 },
      message: "Permission required for add",
      reason: "Mode: default",
      bypassImmune: false,
      suggestions: [{ toolName: "add", behavior: "allow", source: "suggested" }],
    });
    expect(executor.waiting).toBe(true);
    await expect(collect(executor.run([]))).rejects.toThrow(/waiting for confirmations/);

    const resumed = await collect(executor.resume({ confirmResults: [{ toolCallId: "c1", confirmed: true, rules: request.suggestions }] }));
    expect(summary(resumed)).toEqual(["tool_result_start:c1", "tool_result_end:c1"]);
    expect(executor.responses.map((r) => r.text)).toEqual(["3"]);
    expect(engine.listRules("allow")).toEqual([{ toolName: "add", behavior: "allow", source: "suggested" }]);

    const again = await collect(executor.run([call("c2", "add", { a: 2, b: 2 })]));
    expect(summary(again)).toEqual(["tool_result_start:c2", "tool_result_end:c2"]);
  });

  it("a refusal denies the call; the user's edited input is validated and used", async () => {
    const kit = new Toolkit({ tools: [add()] });
    const executor = kit.createExecutor();
    await collect(executor.run([call("no", "add", { a: 1, b: 1 })]));
    const refused = await collect(executor.resume({ confirmResults: [{ toolCallId: "no", confirmed: false }] }));
    const denied = find(refused, "tool_denied", "no");
    expect(denied.byUser).toBe(true);
    expect(denied.response.text).toBe('<system-reminder>The execution of tool "add" is denied by user!</system-reminder>');

    await collect(executor.run([call("bad", "add", { a: 1, b: 1 })]));
    const invalid = await collect(executor.resume({ confirmResults: [{ toolCallId: "bad", confirmed: true, input: { a: "x" } }] }));
    expect(find(invalid, "tool_error", "bad").response.text).toMatch(/does not match its schema/);
    await collect(executor.run([call("edit", "add", { a: 1, b: 1 })]));
    const answers = await collect(executor.resume({ confirmResults: [{ toolCallId: "edit", confirmed: true, input: { a: 10, b: 5 } }] }));
    expect(find(answers, "tool_result_end", "edit").response.text).toBe("15");
  });

  it("a malformed rule in the answer is an error result naming the rule, and nothing is remembered", async () => {
    const engine = new PermissionEngine();
    const executor = new Toolkit({ tools: [add()], engine }).createExecutor();
    await collect(executor.run([call("r", "add", { a: 1, b: 1 })]));
    const events = await collect(executor.resume({ confirmResults: [{ toolCallId: "r", confirmed: true, rules: ["add", "add(oops"] }] }));
    const error = find(events, "tool_error", "r");
    expect(error.response.text).toMatch(/Invalid permission rule "add\(oops" in the user's confirmation/);
    expect(engine.listRules("allow")).toEqual([]);
  });

  it("answering a call that is not waiting is a programming error", async () => {
    const executor = new Toolkit({ tools: [add()] }).createExecutor();
    await collect(executor.run([call("x", "add", { a: 1, b: 1 })]));
    await expect(collect(executor.resume({ confirmResults: [{ toolCallId: "y", confirmed: true }] }))).rejects.toThrow(
      /"y" is not waiting/,
    );
    await expect(collect(executor.resume({ executionResults: [{ toolCallId: "x", output: "" }] }))).rejects.toThrow(
      /not waiting for an external result/,
    );
  });

  it("a safety ASK is shown again even after the suggested rule was remembered", async () => {
    const engine = new PermissionEngine();
    const kit = new Toolkit({ tools: [new ProbeTool({ verdict: "safety-ask" })], engine });
    const executor = kit.createExecutor();
    const first = await collect(executor.run([call("s1", "Probe", { target: "x" })]));
    const request = find(first, "require_user_confirm").toolCalls[0]!;
    expect(request.bypassImmune).toBe(true);
    await collect(executor.resume({ confirmResults: [{ toolCallId: "s1", confirmed: true, rules: request.suggestions }] }));
    const second = await collect(executor.run([call("s2", "Probe", { target: "x" })]));
    expect(summary(second)).toEqual(["require_user_confirm:s2"]);
  });
});

describe("ToolCallExecutor: batching", () => {
  it("runs consecutive concurrency-safe calls in parallel", async () => {
    let started = 0;
    let release: () => void = () => {};
    const bothStarted = new Promise<void>((resolve) => (release = resolve));
    const rendezvous = new FunctionTool(
      async () => {
        if (++started === 2) release();
        // Resolves only if the other call started while this one is running.
        const outcome = await Promise.race([
          bothStarted.then(() => "parallel"),
          new Promise((r) => setTimeout(() => r("sequential"), 2000)),
        ]);
        return outcome;
      },
      { name: "meet" },
    );
    const kit = new Toolkit({ tools: [rendezvous], engine: new PermissionEngine({ allow: ["meet"] }) });
    const events = await collect(kit.createExecutor().run([call("a", "meet", {}), call("b", "meet", {})]));
    expect(find(events, "tool_result_end", "a").response.text).toBe("parallel");
    expect(find(events, "tool_result_end", "b").response.text).toBe("parallel");
  });

  it("an unsafe call that must ask holds back the calls after it", async () => {
    const unsafe = new ProbeTool({ name: "Unsafe" });
    const kit = new Toolkit({ tools: [unsafe, add()], engine: new PermissionEngine({ allow: ["add"] }) });
    const executor = kit.createExecutor();
    const first = await collect(
      executor.run([call("1", "add", { a: 1, b: 0 }), call("2", "Unsafe", { target: "x" }), call("3", "add", { a: 3, b: 0 })]),
    );
    expect(summary(first)).toEqual(["tool_result_start:1", "tool_result_end:1", "require_user_confirm:2"]);
    const rest = await collect(executor.resume({ confirmResults: [{ toolCallId: "2", confirmed: true }] }));
    expect(summary(rest)).toEqual(["tool_result_start:2", "tool_result_end:2", "tool_result_start:3", "tool_result_end:3"]);
    expect(executor.responses.map((r) => r.text)).toEqual(["1", "probed x", "3"]);
  });

  it("in a parallel batch, an ASK covered by a suggestion already shown waits for that answer", async () => {
    const kit = new Toolkit({ tools: [add()] });
    const executor = kit.createExecutor();
    const first = await collect(executor.run([call("p1", "add", { a: 1, b: 1 }), call("p2", "add", { a: 2, b: 2 })]));
    expect(summary(first)).toEqual(["require_user_confirm:p1"]);
    const request = find(first, "require_user_confirm").toolCalls[0]!;
    const rest = await collect(executor.resume({ confirmResults: [{ toolCallId: "p1", confirmed: true, rules: request.suggestions }] }));
    expect(summary(rest)).toEqual(["tool_result_start:p1", "tool_result_end:p1", "tool_result_start:p2", "tool_result_end:p2"]);
    expect(executor.responses.map((r) => r.text)).toEqual(["2", "4"]);
  });

  it("the held ASK is shown after all when the user accepted no rule", async () => {
    const executor = new Toolkit({ tools: [add()] }).createExecutor();
    await collect(executor.run([call("p1", "add", { a: 1, b: 1 }), call("p2", "add", { a: 2, b: 2 })]));
    const rest = await collect(executor.resume({ confirmResults: [{ toolCallId: "p1", confirmed: true }] }));
    expect(summary(rest)).toEqual(["tool_result_start:p1", "tool_result_end:p1", "require_user_confirm:p2"]);
  });
});

describe("ToolCallExecutor: external execution round trip", () => {
  it("hands the call out and accepts its result", async () => {
    const { ExternalTool } = await import("@agent-tools/sdk");
    const approval = new ExternalTool({
      name: "HumanApproval",
      description: "Ask a human to approve an action.",
      inputSchema: { type: "object", properties: { action: { type: "string" } }, required: ["action"] },
    });
    const kit = new Toolkit({ tools: [approval, add()], engine: new PermissionEngine({ allow: ["add"] }) });
    const executor = kit.createExecutor();
    const first = await collect(executor.run([call("e", "HumanApproval", { action: "deploy" }), call("n", "add", { a: 1, b: 1 })]));
    expect(summary(first)).toEqual(["tool_result_start:n", "tool_result_end:n", "require_external_execution:e"]);
    expect(find(first, "require_external_execution").toolCalls).toEqual([{ id: "e", name: "HumanApproval", input: { action: "deploy" } }]);
    expect(executor.waiting).toBe(true);
    const done = await collect(
      executor.resume({ executionResults: [{ toolCallId: "e", output: "approved by alice", metadata: { by: "alice" } }] }),
    );
    const end = find(done, "tool_result_end", "e");
    expect(end.response.text).toBe("approved by alice");
    expect(end.response.metadata).toEqual({ by: "alice" });
    expect(executor.waiting).toBe(false);
    expect(executor.responses.map((r) => r.id)).toEqual(["e", "n"]);
  });

  it("an external call the user must confirm is handed out after the confirmation", async () => {
    const { ExternalTool } = await import("@agent-tools/sdk");
    const tool = new ExternalTool({ name: "Deploy", description: "d", inputSchema: { type: "object", properties: {} } });
    const executor = new Toolkit({ tools: [tool], engine: new PermissionEngine({ ask: ["Deploy"] }) }).createExecutor();
    expect(summary(await collect(executor.run([call("d", "Deploy", {})])))).toEqual(["require_user_confirm:d"]);
    expect(summary(await collect(executor.resume({ confirmResults: [{ toolCallId: "d", confirmed: true }] })))).toEqual([
      "require_external_execution:d",
    ]);
    const end = await collect(
      executor.resume({ executionResults: [{ toolCallId: "d", output: [{ type: "text", text: "failed" }], state: "error" }] }),
    );
    expect(find(end, "tool_result_end", "d").response.state).toBe("error");
  });
});

describe("Toolkit.callTool", () => {
  it("runs without the engine and returns the accumulated response", async () => {
    const kit = new Toolkit({ tools: [add()], engine: new PermissionEngine({ deny: ["add"] }) });
    const stream = kit.callTool({ id: "k", name: "add", input: { a: 4, b: 4 } });
    const chunks: ToolChunk[] = [];
    let step = await stream.next();
    while (!step.done) {
      chunks.push(step.value);
      step = await stream.next();
    }
    expect(chunks).toHaveLength(1);
    expect(step.value.text).toBe("8");
  });
});
