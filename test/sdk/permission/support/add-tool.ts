import { FunctionTool } from "@agent-tools/sdk";

/** The FunctionTool most examples use: `add({a, b})` → a + b, with a JSON Schema requiring both. */
export function addTool(): FunctionTool<{ a: number; b: number }> {
  return new FunctionTool(({ a, b }: { a: number; b: number }) => a + b, {
    name: "add",
    description: "Add two numbers.",
    inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] },
  });
}
