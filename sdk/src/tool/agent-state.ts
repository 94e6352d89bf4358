/**
 * State that outlives one tool call: the read cache of the file tools, the task list of the plan
 * tools. State-injected tools (`isStateInjected`) receive it in `ToolCallContext.state`. Each
 * concept keeps its own typed slot, created on first use.
 */
export class AgentState {
  private readonly slots = new Map<string, unknown>();

  slot<T>(key: string, create: () => T): T {
    if (!this.slots.has(key)) this.slots.set(key, create());
    return this.slots.get(key) as T;
  }

  clear(key: string): void {
    this.slots.delete(key);
  }
}
