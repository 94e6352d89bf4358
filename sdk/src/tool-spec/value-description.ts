/** A JSON object (not null, not a list): what every object field of spec.json must be. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** `the number 3`, `a list`, `the string "x"`: enough to spot the mistake in the spec. */
export function describeValue(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "string") return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  if (typeof value === "object") return "an object";
  return `the ${typeof value} ${String(value)}`;
}
