import type { AgentState } from "../../tool/agent-state.js";

export const TaskStatus = { PENDING: "pending", IN_PROGRESS: "in_progress", COMPLETED: "completed" } as const;
export type TaskStatus = (typeof TaskStatus)[keyof typeof TaskStatus];

export interface Task {
  id: string;
  subject: string;
  description: string;
  metadata: Record<string, unknown>;
  createdAt: string;
  state: TaskStatus;
  owner: string | undefined;
  blocks: string[];
  blockedBy: string[];
}

const STATE_SLOT = "builtin.tasks";

/** The agent's task list (kept in the agent's state), shared by the four task tools. */
export class TaskStore {
  readonly tasks: Task[] = [];

  static of(state: AgentState): TaskStore {
    return state.slot(STATE_SLOT, () => new TaskStore());
  }

  /** Ids are "1", "2"...: one more than the highest numeric id (non-numeric ids are ignored). */
  create(subject: string, description: string, metadata: Record<string, unknown> = {}): Task {
    const highest = Math.max(0, ...this.tasks.map((task) => Number(task.id)).filter(Number.isInteger));
    const task: Task = {
      id: String(highest + 1),
      subject,
      description,
      metadata: { ...metadata },
      createdAt: new Date().toISOString(),
      state: TaskStatus.PENDING,
      owner: undefined,
      blocks: [],
      blockedBy: [],
    };
    this.tasks.push(task);
    return task;
  }

  get(id: string): Task | undefined {
    return this.tasks.find((task) => task.id === id);
  }

  /** Removes the task and every reference to it. */
  delete(id: string): void {
    const index = this.tasks.findIndex((task) => task.id === id);
    if (index >= 0) this.tasks.splice(index, 1);
    for (const task of this.tasks) {
      task.blocks = task.blocks.filter((other) => other !== id);
      task.blockedBy = task.blockedBy.filter((other) => other !== id);
    }
  }

  /** `blocker` blocks `blocked`, recorded on both sides; unknown or duplicate links are ignored. */
  link(blocker: string, blocked: string): boolean {
    const [from, to] = [this.get(blocker), this.get(blocked)];
    if (!from || !to || from === to || from.blocks.includes(blocked)) return false;
    from.blocks.push(blocked);
    to.blockedBy.push(blocker);
    return true;
  }
}
