import { describe, expect, it } from "vitest";
import { PermissionEngine, PermissionMode, TaskCreate, TaskGet, TaskList, TaskUpdate, Toolkit, type ToolBase } from "@agent-tools/sdk";
import { TaskStore } from "../../../sdk/src/builtin/tasks/task-store.js";
import { runTool } from "./support.js";

const tools = () => [new TaskCreate(), new TaskGet(), new TaskList(), new TaskUpdate()];

describe("task tools", () => {
  it("create, list, get, update, link and delete through the toolkit's shared state", async () => {
    const toolkit = new Toolkit({ tools: tools() });
    const call = async (name: string, input: Record<string, unknown> = {}) => (await runTool(toolkit, name, input)).text;
    expect(await call("TaskList")).toBe("No tasks available.");
    expect(await call("TaskCreate", { subject: "Write parser", description: "tree-sitter" })).toBe(
      "Task (id=1) created successfully: Write parser",
    );
    expect(await call("TaskCreate", { subject: "Write tests", description: "corpus", metadata: { priority: "high" } })).toBe(
      "Task (id=2) created successfully: Write tests",
    );
    expect(await call("TaskUpdate", { task_id: "2", add_blocked_by: ["1", "99"], owner: "helper-b", status: "in_progress" })).toBe(
      "Update task (id=2) status, owner, blocked_by.",
    );
    expect(await call("TaskList")).toBe("1 [pending] Write parser\n2 [in_progress] Write tests(helper-b)[blocked by 1]");
    expect(await call("TaskGet", { task_id: "2" })).toBe(
      'Task (id=2): Write tests\nStatus: in_progress\nDescription: corpus\nOwner: helper-b\nBlocked by: #1\nMetadata: {"priority":"high"}',
    );
    expect(await call("TaskGet", { task_id: "1" })).toBe(
      "Task (id=1): Write parser\nStatus: pending\nDescription: tree-sitter\nBlocks: #2",
    );
    expect(await call("TaskUpdate", { task_id: "2", metadata: { priority: null, size: 3 } })).toBe("Update task (id=2) metadata.");
    expect(await call("TaskUpdate", { task_id: "1", status: "completed" })).toBe(
      "Update task (id=1) status.\nTask completed. Call TaskList to find your next task.",
    );
    expect(await call("TaskUpdate", { task_id: "1", status: "deleted" })).toBe("Task (id=1) has been deleted.");
    expect(await call("TaskList")).toBe("2 [in_progress] Write tests(helper-b)");
    expect(await call("TaskGet", { task_id: "2" })).toContain('Metadata: {"size":3}');
    expect(await call("TaskCreate", { subject: "Next", description: "" })).toBe("Task (id=3) created successfully: Next");
  });

  it("reports unknown tasks and empty updates", async () => {
    const toolkit = new Toolkit({ tools: tools() });
    expect((await runTool(toolkit, "TaskGet", { task_id: "7" })).text).toBe("Task not found");
    expect((await runTool(toolkit, "TaskUpdate", { task_id: "7" })).text).toBe("TaskNotFoundError: The task (id=7) does not exist.");
    await runTool(toolkit, "TaskCreate", { subject: "A", description: "" });
    expect((await runTool(toolkit, "TaskUpdate", { task_id: "1" })).text).toMatch(/^No updates were made/);
  });

  it("are always allowed; in EXPLORE only TaskGet and TaskList, which only read the plan", async () => {
    const calls: [ToolBase<any>, Record<string, unknown>][] = [
      [new TaskCreate(), { subject: "x", description: "" }],
      [new TaskGet(), { task_id: "1" }],
      [new TaskList(), {}],
      [new TaskUpdate(), { task_id: "1", status: "completed" }],
    ];
    for (const mode of [PermissionMode.DEFAULT, PermissionMode.ACCEPT_EDITS, PermissionMode.BYPASS, PermissionMode.DONT_ASK]) {
      for (const [tool, input] of calls) expect((await new PermissionEngine({ mode }).checkPermission(tool, input)).behavior).toBe("allow");
    }
    const explore = new PermissionEngine({ mode: PermissionMode.EXPLORE });
    const decided: Record<string, string> = {};
    for (const [tool, input] of calls) decided[tool.name] = (await explore.checkPermission(tool, input)).behavior;
    expect(decided).toEqual({ TaskCreate: "deny", TaskGet: "allow", TaskList: "allow", TaskUpdate: "deny" });
  });

  it("let a plan made before EXPLORE be read through the executor in EXPLORE", async () => {
    const engine = new PermissionEngine();
    const toolkit = new Toolkit({ tools: tools(), engine });
    await runTool(toolkit, "TaskCreate", { subject: "Read the code", description: "" });
    engine.setMode(PermissionMode.EXPLORE);
    const [listed, created] = await toolkit.createExecutor().runToCompletion([
      { id: "1", name: "TaskList", input: {} },
      { id: "2", name: "TaskCreate", input: { subject: "More", description: "" } },
    ]);
    expect(listed?.text).toBe("1 [pending] Read the code");
    expect(created).toMatchObject({ state: "denied", text: "Permission denied for TaskCreate (explore mode is read-only)" });
  });

  it("work without a toolkit when given a store", async () => {
    const store = new TaskStore();
    const create = new TaskCreate({ store });
    await create.call({ subject: "Direct", description: "" });
    expect(store.tasks.map((task) => task.subject)).toEqual(["Direct"]);
    expect(new TaskList().call({}).state).toBe("error");
  });
});
