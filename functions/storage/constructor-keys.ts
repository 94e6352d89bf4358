import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";

/**
 * Stored JSON may hold any object key a tool author chose, `constructor` included (an input
 * property of that name is legitimate). The AWS SDK's marshaller tells a plain object from a Set,
 * Map, String or class instance by `value.constructor.name`, so an object whose own `constructor`
 * key holds data is refused (a 500) or, worse, stored as something else (`{"constructor":
 * {"name": "String"}}` became the string "[object Object]"). A `Map` is marshalled by its entries,
 * whatever their keys, into the same map attribute, so such objects go to the marshaller as Maps.
 * (`__proto__` cannot be held by a plain object at all: entry-limits.ts refuses it.)
 */
export function withConstructorKeysAsMaps(value: unknown): unknown {
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    value.forEach((item, index) => {
      const converted = withConstructorKeysAsMaps(item);
      if (converted !== item) (copy ??= [...value])[index] = converted;
    });
    return copy ?? value;
  }
  if (value === null || typeof value !== "object" || Object.getPrototypeOf(value) !== Object.prototype) return value;
  const entries = Object.entries(value);
  let changed = Object.hasOwn(value, "constructor");
  const converted = entries.map(([key, item]) => {
    const next = withConstructorKeysAsMaps(item);
    if (next !== item) changed = true;
    return [key, next] as const;
  });
  if (!changed) return value;
  return Object.hasOwn(value, "constructor") ? new Map(converted) : Object.fromEntries(converted);
}

/** Every command of `client` has its input passed through `withConstructorKeysAsMaps` before the SDK marshals it. */
export function marshalConstructorKeys(client: DynamoDBDocumentClient): DynamoDBDocumentClient {
  client.middlewareStack.add((next) => (args) => next({ ...args, input: withConstructorKeysAsMaps(args.input) as typeof args.input }), {
    step: "initialize",
    name: "constructorKeysAsMaps",
  });
  return client;
}
