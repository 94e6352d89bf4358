import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { Bash, PermissionEngine, PermissionMode, Read, Toolkit } from "@agent-tools/sdk";
import { addTool } from "../permission/support/add-tool.js";
import { collect, find } from "../permission/support/events.js";

// The permissions example of docs/permissions.md, kept runnable: the engine, with built-in and function tools.
describe("the issue's example", () => {
  const engine = new PermissionEngine({
    mode: PermissionMode.DEFAULT,
    workingDirectories: [process.cwd()],
    allow: ["Bash(npm run test:*)", "Read"],
    ask: [],
    deny: ["Bash(git push:*)", "Read(./.env)"],
  });
  const bash = new Bash();
  const read = new Read();

  it("decides as the rules say", async () => {
    expect(await engine.checkPermission(bash, { command: "npm run test -- --watch" })).toMatchObject({
      behavior: "allow",
      reason: expect.stringContaining("npm run test:*"),
      suggestions: [],
      bypassImmune: false,
    });
    expect(await engine.checkPermission(bash, { command: "git push origin main" })).toMatchObject({
      behavior: "deny",
      message: "Permission to use Bash has been denied",
      reason: "Rule: Bash(git push:*)",
    });
    expect((await engine.checkPermission(read, { file_path: join(process.cwd(), ".env") })).behavior).toBe("deny");
    expect((await engine.checkPermission(read, { file_path: join(process.cwd(), "package.json") })).behavior).toBe("allow");
    const asked = await engine.checkPermission(bash, { command: "npm install left-pad" });
    expect(asked.behavior).toBe("ask");
    expect(asked.suggestions.length).toBeGreaterThan(0);
  });

  it("governs a Toolkit with built-in and function tools", async () => {
    const add = addTool();
    const toolkit = new Toolkit({ tools: [bash, read, add], engine });
    const executor = toolkit.createExecutor();
    const events = await collect(
      executor.run([
        { id: "1", name: "Read", input: { file_path: join(process.cwd(), "package.json") } },
        { id: "2", name: "add", input: '{"a": 20, "b": 22}' },
      ]),
    );
    expect(find(events, "tool_result_end", "1").response.text).toContain('"name": "agent-tools"');
    const request = find(events, "require_user_confirm").toolCalls[0]!;
    expect(request.name).toBe("add");
    const resumed = await collect(executor.resume({ confirmResults: [{ toolCallId: "2", confirmed: true, rules: request.suggestions }] }));
    expect(find(resumed, "tool_result_end", "2").response.text).toBe("42");
  });
});
