/**
 * The single user message of the request: the prompt, and when there is input,
 * `"\n\nInput data (JSON):\n" + json.dumps(input_dict, indent=2)` as the Python SDK wrote it (docs/design/compatibility.md#search-request).
 */
export function buildUserMessage(prompt: string, input?: Record<string, unknown>): string {
  if (input === undefined || Object.keys(input).length === 0) return prompt;
  return `${prompt}\n\nInput data (JSON):\n${pythonJsonDumps(input)}`;
}

/**
 * Python's `json.dumps(value, indent=2)`: the same layout as `JSON.stringify(value, null, 2)`
 * (", " never appears: items end the line, keys use ": "), plus `ensure_ascii`, which writes DEL and every
 * non-ASCII UTF-16 unit as a lower-case `\uXXXX` escape. These only occur inside strings,
 * so escaping the whole text is safe. (Numbers follow JavaScript: `1.0` prints as `1`.)
 */
export function pythonJsonDumps(value: unknown): string {
  return JSON.stringify(value, null, 2).replace(/[\u007f-\uffff]/g, (unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, "0")}`);
}
