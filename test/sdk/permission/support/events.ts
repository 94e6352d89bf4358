import type { ToolExecutionEvent } from "@agent-tools/sdk";

export async function collect(stream: AsyncIterable<ToolExecutionEvent>): Promise<ToolExecutionEvent[]> {
  const events: ToolExecutionEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

/** Event types with the call they concern, e.g. "tool_result_end:c1", for order-sensitive assertions. */
export function summary(events: ToolExecutionEvent[]): string[] {
  return events
    .filter((event) => event.type !== "tool_result_chunk")
    .map((event) =>
      "toolCallId" in event ? `${event.type}:${event.toolCallId}` : `${event.type}:${event.toolCalls.map((c) => c.id).join(",")}`,
    );
}

export function find<T extends ToolExecutionEvent["type"]>(events: ToolExecutionEvent[], type: T, id?: string) {
  const event = events.find(
    (candidate) => candidate.type === type && (id === undefined || ("toolCallId" in candidate && candidate.toolCallId === id)),
  );
  if (!event) throw new Error(`no ${type} event${id ? ` for ${id}` : ""} in ${JSON.stringify(summary(events))}`);
  return event as Extract<ToolExecutionEvent, { type: T }>;
}
