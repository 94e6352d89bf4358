import { ToolInputError } from "./runtime-errors.js";

/** JSON text for a message to a tool; a value JSON cannot carry fails here, before anything is sent. */
export function toJsonPayload(toolId: string, value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch (error) {
    throw new ToolInputError(toolId, error instanceof Error ? error.message : String(error), error);
  }
}
