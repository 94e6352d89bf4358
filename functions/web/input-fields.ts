import { isPlainObject } from "../entry/field-types.js";

/** One row of a tool's input table: a property of `tool_api_spec.entrypoints.execute.input`. */
export interface InputField {
  /** Dotted path: `options.depth`, `items[].name` for the properties of array items. */
  name: string;
  type: string;
  required: boolean;
  description: string;
  /** `default`, `enum` and other constraints, as short readable text. */
  notes: string[];
}

/** Nesting deeper than this is summarised by its type: the table is for reading, the JSON is in the API. */
const MAX_DEPTH = 3;
const MAX_FIELDS = 200;

export function inputSchemaOf(apiSpec: unknown): Record<string, unknown> | undefined {
  let input = apiSpec;
  for (const key of ["entrypoints", "execute", "input"]) input = isPlainObject(input) ? input[key] : undefined;
  return isPlainObject(input) ? input : undefined;
}

/** The rows of an object schema's properties, nested objects flattened up to MAX_DEPTH. */
export function inputFields(schema: Record<string, unknown>): InputField[] {
  const fields: InputField[] = [];
  collect(schema, "", 1, fields);
  return fields.slice(0, MAX_FIELDS);
}

function collect(schema: Record<string, unknown>, prefix: string, depth: number, fields: InputField[]): void {
  const properties = isPlainObject(schema.properties) ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? schema.required.filter((name) => typeof name === "string") : []);
  for (const [name, property] of Object.entries(properties)) {
    if (fields.length >= MAX_FIELDS) return;
    const path = `${prefix}${name}`;
    const child = isPlainObject(property) ? property : {};
    fields.push({
      name: path,
      type: typeOf(child),
      required: required.has(name),
      description: text(child.description) || text(child.title),
      notes: notesOf(child),
    });
    if (depth >= MAX_DEPTH) continue;
    if (isPlainObject(child.properties)) collect(child, `${path}.`, depth + 1, fields);
    else if (isPlainObject(child.items) && isPlainObject(child.items.properties)) collect(child.items, `${path}[].`, depth + 1, fields);
  }
}

/** `string`, `integer | null`, `array of string`, or `any` when the schema does not say. */
export function typeOf(schema: Record<string, unknown>): string {
  const type = Array.isArray(schema.type) ? schema.type.map(String).join(" | ") : text(schema.type);
  if (type === "array" && isPlainObject(schema.items)) return `array of ${typeOf(schema.items)}`;
  if (type) return type;
  if (Array.isArray(schema.enum)) return "enum";
  for (const combinator of ["anyOf", "oneOf"]) {
    const options = schema[combinator];
    if (Array.isArray(options)) return options.map((option) => (isPlainObject(option) ? typeOf(option) : "any")).join(" | ");
  }
  return "any";
}

const CONSTRAINTS = [
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "minLength",
  "maxLength",
  "minItems",
  "maxItems",
  "pattern",
  "format",
] as const;

function notesOf(schema: Record<string, unknown>): string[] {
  const notes: string[] = [];
  if (schema.default !== undefined) notes.push(`default ${JSON.stringify(schema.default)}`);
  if (Array.isArray(schema.enum)) notes.push(`one of ${schema.enum.map((value) => JSON.stringify(value)).join(", ")}`);
  for (const keyword of CONSTRAINTS) if (schema[keyword] !== undefined) notes.push(`${keyword} ${JSON.stringify(schema[keyword])}`);
  return notes;
}

function text(value: unknown): string {
  return typeof value === "string" ? value : "";
}

/**
 * A call input to show in the snippets: each required property with its first example, default or
 * enum value, else a placeholder of its type.
 */
export function exampleInput(schema: Record<string, unknown> | undefined): Record<string, unknown> {
  if (!schema) return {};
  const properties = isPlainObject(schema.properties) ? schema.properties : {};
  const required = Array.isArray(schema.required) ? schema.required.filter((name): name is string => typeof name === "string") : [];
  const example: Record<string, unknown> = {};
  for (const name of required) {
    const property = isPlainObject(properties[name]) ? properties[name] : {};
    example[name] = exampleValue(name, property);
  }
  return example;
}

function exampleValue(name: string, schema: Record<string, unknown>): unknown {
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if (schema.default !== undefined) return schema.default;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  const placeholders: Record<string, unknown> = {
    string: `<${name}>`,
    integer: 0,
    number: 0,
    boolean: false,
    array: [],
    object: {},
    null: null,
  };
  return typeof type === "string" && type in placeholders ? placeholders[type] : `<${name}>`;
}
