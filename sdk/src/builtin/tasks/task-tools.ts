import { PermissionBehavior, type PermissionDecision } from "../../permission/types.js";
import { BUILTIN_ORIGIN, ToolBase, type ToolBaseOptions, type ToolCallContext, type ToolInputSchema } from "../../tool/tool-base.js";
import { ToolChunk } from "../../tool/tool-chunk.js";
import { TaskStatus, TaskStore, type Task } from "./task-store.js";

export interface TaskToolOptions extends ToolBaseOptions {
  /** Used when the call carries no agent state (direct calls outside a Toolkit). */
  store?: TaskStore;
}

/**
 * The plan tools (docs/design/builtin-tools.md#task-tools): state-injected, concurrency-safe, always allowed.
 * TaskGet and TaskList only read the plan, so they are read-only and EXPLORE mode allows them; TaskCreate
 * and TaskUpdate change it, so EXPLORE denies them.
 */
abstract class TaskToolBase<Input> extends ToolBase<Input> {
  override isStateInjected = true;
  override readonly origin = BUILTIN_ORIGIN;
  override isConcurrencySafe = true;
  private readonly store: TaskStore | undefined;

  constructor(options: TaskToolOptions = {}) {
    super(options);
    this.store = options.store;
  }

  checkPermissions(): PermissionDecision {
    return { behavior: PermissionBehavior.ALLOW, message: "Task tools are always allowed." };
  }

  override call(input: Input, context: ToolCallContext = {}): ToolChunk {
    const store = context.state ? TaskStore.of(context.state) : this.store;
    if (!store)
      return ToolChunk.error(`Error: ${this.name} needs the agent state: run it through a Toolkit, or pass { store } to its constructor.`);
    return this.run(store, input ?? ({} as Input));
  }

  protected abstract run(store: TaskStore, input: Input): ToolChunk;
}

export interface TaskCreateInput {
  subject: string;
  description: string;
  metadata?: Record<string, unknown>;
}

export class TaskCreate extends TaskToolBase<TaskCreateInput> {
  readonly name = "TaskCreate";
  readonly description = "Creates a task in the task list to track progress on multi-step work. New tasks start as pending.";
  readonly inputSchema: ToolInputSchema = {
    type: "object",
    properties: {
      subject: { type: "string", description: 'A short imperative title, e.g. "Fix the login bug".' },
      description: { type: "string", description: "What needs to be done and how to tell it is done." },
      metadata: { type: "object", description: "Optional extra data." },
    },
    required: ["subject", "description"],
  };

  protected run(store: TaskStore, input: TaskCreateInput): ToolChunk {
    if (typeof input.subject !== "string" || input.subject.trim() === "") return ToolChunk.error("Error: subject is required.");
    const task = store.create(input.subject, typeof input.description === "string" ? input.description : "", input.metadata ?? {});
    return ToolChunk.text(`Task (id=${task.id}) created successfully: ${task.subject}`, { metadata: { task_id: task.id } });
  }
}

export interface TaskGetInput {
  task_id: string;
}

export class TaskGet extends TaskToolBase<TaskGetInput> {
  readonly name = "TaskGet";
  override isReadOnly = true;
  readonly description = "Returns a task's full details (status, description, owner, dependencies) by id.";
  readonly inputSchema: ToolInputSchema = {
    type: "object",
    properties: { task_id: { type: "string", description: "The task id." } },
    required: ["task_id"],
  };

  protected run(store: TaskStore, input: TaskGetInput): ToolChunk {
    const task = store.get(String(input.task_id));
    if (!task) return ToolChunk.error("Task not found");
    const lines = [`Task (id=${task.id}): ${task.subject}`, `Status: ${task.state}`, `Description: ${task.description}`];
    if (task.owner) lines.push(`Owner: ${task.owner}`);
    if (task.blockedBy.length > 0) lines.push(`Blocked by: ${task.blockedBy.map((id) => `#${id}`).join(", ")}`);
    if (task.blocks.length > 0) lines.push(`Blocks: ${task.blocks.map((id) => `#${id}`).join(", ")}`);
    if (Object.keys(task.metadata).length > 0) lines.push(`Metadata: ${JSON.stringify(task.metadata)}`);
    return ToolChunk.text(lines.join("\n"));
  }
}

export class TaskList extends TaskToolBase<Record<string, never>> {
  readonly name = "TaskList";
  override isReadOnly = true;
  readonly description = "Lists all tasks with their id, status, subject, owner and blockers.";
  readonly inputSchema: ToolInputSchema = { type: "object", properties: {} };

  protected run(store: TaskStore): ToolChunk {
    if (store.tasks.length === 0) return ToolChunk.text("No tasks available.");
    return ToolChunk.text(store.tasks.map(formatListLine).join("\n"));
  }
}

function formatListLine(task: Task): string {
  const owner = task.owner ? `(${task.owner})` : "";
  const blocked = task.blockedBy.length > 0 ? `[blocked by ${task.blockedBy.join(", ")}]` : "";
  return `${task.id} [${task.state}] ${task.subject}${owner}${blocked}`;
}

export interface TaskUpdateInput {
  task_id: string;
  subject?: string;
  description?: string;
  status?: TaskStatus | "deleted";
  owner?: string;
  add_blocks?: string[];
  add_blocked_by?: string[];
  /** Merged into the task's metadata; a null value deletes the key. */
  metadata?: Record<string, unknown>;
}

const STATUSES: readonly string[] = [...Object.values(TaskStatus), "deleted"];

export class TaskUpdate extends TaskToolBase<TaskUpdateInput> {
  readonly name = "TaskUpdate";
  readonly description =
    "Updates a task: status (pending, in_progress, completed, or deleted to remove it), subject, description, owner, " +
    "dependencies (add_blocks, add_blocked_by) and metadata (null deletes a " +
    "key). Mark a task in_progress before starting it and completed when done.";
  readonly inputSchema: ToolInputSchema = {
    type: "object",
    properties: {
      task_id: { type: "string" },
      subject: { type: "string" },
      description: { type: "string" },
      status: { type: "string", enum: [...STATUSES] },
      owner: { type: "string" },
      add_blocks: { type: "array", items: { type: "string" } },
      add_blocked_by: { type: "array", items: { type: "string" } },
      metadata: { type: "object" },
    },
    required: ["task_id"],
  };

  protected run(store: TaskStore, input: TaskUpdateInput): ToolChunk {
    const id = String(input.task_id);
    const task = store.get(id);
    if (!task) return ToolChunk.error(`TaskNotFoundError: The task (id=${id}) does not exist.`);
    if (input.status !== undefined && !STATUSES.includes(input.status))
      return ToolChunk.error(`Error: status must be one of ${STATUSES.join(", ")}.`);
    if (input.status === "deleted") {
      store.delete(id);
      return ToolChunk.text(`Task (id=${id}) has been deleted.`);
    }
    const updated: string[] = [];
    if (input.subject) {
      task.subject = input.subject;
      updated.push("subject");
    }
    if (input.description !== undefined) {
      task.description = input.description;
      updated.push("description");
    }
    if (input.status !== undefined) {
      task.state = input.status;
      updated.push("status");
    }
    if (input.owner !== undefined) {
      task.owner = input.owner;
      updated.push("owner");
    }
    if ((input.add_blocks ?? []).map((other) => store.link(id, String(other))).some(Boolean)) updated.push("blocks");
    if ((input.add_blocked_by ?? []).map((other) => store.link(String(other), id)).some(Boolean)) updated.push("blocked_by");
    if (input.metadata && typeof input.metadata === "object") {
      for (const [key, value] of Object.entries(input.metadata)) {
        if (value === null) delete task.metadata[key];
        else task.metadata[key] = value;
      }
      updated.push("metadata");
    }
    if (updated.length === 0) return ToolChunk.text(`No updates were made to task (id=${id}). Provide at least one field to change.`);
    const hint = task.state === TaskStatus.COMPLETED ? "\nTask completed. Call TaskList to find your next task." : "";
    return ToolChunk.text(`Update task (id=${id}) ${updated.join(", ")}.${hint}`);
  }
}
