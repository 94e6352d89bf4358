/**
 * What a stored entry may hold. One entry is one DynamoDB item (twice: the version item and the
 * latest pointer's copy), and DynamoDB refuses items over 400 KB, attributes nested more than 32
 * levels deep, empty attribute names and numbers outside its range; the AWS SDK refuses numbers it
 * cannot round-trip exactly. The registry refuses such entries itself, up front, with a 4xx that
 * names the field, instead of letting the write fail (docs/durability.md, "Limits"). These are the
 * rules the DynamoDB Local conformance suite checks against AWS's own implementation.
 */

/** DynamoDB's item size limit, in bytes. */
export const DYNAMODB_ITEM_LIMIT = 400 * 1024;
/** The budget of one entry as stored; the rest of the item (keys, digests, rank) fits in what is left. */
export const MAX_ENTRY_BYTES = 300 * 1024;
/**
 * Deepest nesting of a field's value: the item (1) holds `entry` (2), whose fields are maps or
 * lists from level 3, so a field value may nest 30 levels to stay within DynamoDB's 32.
 */
export const MAX_FIELD_DEPTH = 30;

/** Longest object key in stored JSON, in UTF-8 bytes (DynamoDB Local already fails on names over 50,000). */
export const MAX_KEY_BYTES = 1024;
/**
 * The one key a plain JavaScript object cannot hold as data: assigning it sets the prototype. The
 * AWS SDK's marshaller, and any client that copies an entry key by key, would drop it or worse.
 */
export const PROTOTYPE_KEY = "__proto__";
/**
 * Stored numbers: 0, or a magnitude from DynamoDB's smallest (1e-130) to the largest integer a
 * JavaScript number holds exactly (the SDK refuses larger ones rather than round them).
 */
export const MIN_NUMBER_MAGNITUDE = 1e-130;
export const MAX_NUMBER_MAGNITUDE = Number.MAX_SAFE_INTEGER;

/** Size and depth of a JSON value as DynamoDB counts them. */
export interface StoredShape {
  /** Bytes as DynamoDB sizes them (UTF-8 strings, ~1 byte per 2 digits of a number, 3 + 1 per element of a map or list, plus key names). */
  bytes: number;
  /** 0 for a scalar, 1 for a map or list of scalars, and so on. */
  depth: number;
}

/**
 * Walks `value` without recursion (a body nested 100,000 deep must not overflow the stack) and
 * stops as soon as it is deeper than `maxDepth`.
 */
export function storedShape(value: unknown, maxDepth = Number.POSITIVE_INFINITY): StoredShape {
  let bytes = 0;
  let depth = 0;
  const pending: { value: unknown; level: number }[] = [{ value, level: 0 }];
  while (pending.length > 0) {
    const { value: current, level } = pending.pop()!;
    if (typeof current === "string") bytes += Buffer.byteLength(current);
    else if (typeof current === "number") bytes += Math.ceil(String(Math.abs(current)).replace(/[.e+-]/g, "").length / 2) + 1;
    else if (typeof current === "boolean" || current === null) bytes += 1;
    else if (typeof current === "object") {
      const here = level + 1;
      if (here > depth) depth = here;
      if (depth > maxDepth) return { bytes, depth };
      bytes += 3;
      if (Array.isArray(current)) {
        for (const item of current) {
          bytes += 1;
          pending.push({ value: item, level: here });
        }
      } else {
        for (const [key, item] of Object.entries(current)) {
          bytes += 1 + Buffer.byteLength(key);
          pending.push({ value: item, level: here });
        }
      }
    }
  }
  return { bytes, depth };
}

/**
 * Every field of `fields` the database cannot store as it is, as sentences naming the field: nested
 * deeper than MAX_FIELD_DEPTH, an empty, over-long or `__proto__` object key, or a number out of range. Walks
 * without recursion and stops at a field's first problem.
 */
export function storageProblems(fields: Record<string, unknown>): string[] {
  const problems: string[] = [];
  for (const [field, value] of Object.entries(fields)) {
    const problem = valueProblem(value);
    if (problem !== undefined) problems.push(`${field} ${problem}`);
  }
  return problems;
}

function valueProblem(value: unknown): string | undefined {
  const pending: { value: unknown; level: number }[] = [{ value, level: 0 }];
  while (pending.length > 0) {
    const { value: current, level } = pending.pop()!;
    if (typeof current === "number") {
      const magnitude = Math.abs(current);
      if (magnitude !== 0 && (magnitude < MIN_NUMBER_MAGNITUDE || magnitude > MAX_NUMBER_MAGNITUDE)) {
        return (
          `holds the number ${current}, which cannot be stored exactly (numbers must be 0 or between ` +
          `${MIN_NUMBER_MAGNITUDE} and ${MAX_NUMBER_MAGNITUDE} in magnitude; write it as a string)`
        );
      }
    } else if (typeof current === "object" && current !== null) {
      if (level + 1 > MAX_FIELD_DEPTH) {
        return (
          `nests more than ${MAX_FIELD_DEPTH} levels deep (stored JSON may nest ` +
          `at most ${MAX_FIELD_DEPTH}: the database allows 32 and the entry uses 2)`
        );
      }
      if (!Array.isArray(current)) {
        for (const key of Object.keys(current)) {
          if (key === "") return 'has an empty object key (""), which the database cannot store: give every key a name';
          if (key === PROTOTYPE_KEY)
            return (
              `has the object key "${PROTOTYPE_KEY}", which JavaScript ` + `readers take for the object's prototype, not a field: rename it`
            );
          const bytes = Buffer.byteLength(key);
          if (bytes > MAX_KEY_BYTES) return `has an object key of ${bytes} bytes, over the ${MAX_KEY_BYTES}-byte limit for keys`;
        }
      }
      for (const item of Object.values(current)) pending.push({ value: item, level: level + 1 });
    }
  }
  return undefined;
}

/**
 * When the entry is over MAX_ENTRY_BYTES: a sentence with its size, the budget and its largest
 * fields, so the author knows which field to shorten. Undefined when it fits.
 */
export function entrySizeProblem(entry: object, maxBytes = MAX_ENTRY_BYTES): string | undefined {
  const sizes = Object.entries(entry).map(([field, value]) => ({ field, bytes: Math.max(storedShape(value).bytes, jsonBytes(value)) }));
  const total = sizes.reduce((sum, { bytes }) => sum + bytes, 0);
  if (total <= maxBytes) return undefined;
  const largest = sizes
    .sort((a, b) => b.bytes - a.bytes)
    .slice(0, 3)
    .map(({ field, bytes }) => `${field} ${bytes} bytes`)
    .join(", ");
  return (
    `the entry would be ${total} bytes as stored, over its budget of ` +
    `${maxBytes} bytes (one database item each; largest fields: ${largest})`
  );
}

function jsonBytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value) ?? "");
}
