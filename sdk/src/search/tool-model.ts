/**
 * `tool_model` (a tool's LLM settings, e.g. `{llm_block_id: "openai:gpt-4o"}`) is not for the
 * selecting model: the Python SDK popped it from the input before the request and put it back into
 * the model's arguments afterwards (when truthy, in Python's sense). Here the caller's object is
 * never mutated.
 */
export interface SplitInput {
  input: Record<string, unknown>;
  toolModel: unknown;
}

export function splitToolModel(input: Record<string, unknown>): SplitInput {
  if (!Object.hasOwn(input, "tool_model")) return { input, toolModel: undefined };
  const { tool_model: toolModel, ...rest } = input;
  return { input: rest, toolModel };
}

export function restoreToolModel(args: Record<string, unknown>, toolModel: unknown): Record<string, unknown> {
  return isPythonTruthy(toolModel) ? { ...args, tool_model: toolModel } : args;
}

/** `bool(value)` in Python: None, False, 0, "" and empty containers are false. */
function isPythonTruthy(value: unknown): boolean {
  if (value === undefined || value === null || value === false || value === 0 || value === "") return false;
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === "object") return Object.keys(value).length > 0;
  return true;
}
