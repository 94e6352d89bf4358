import { Ajv, type ValidateFunction } from "ajv";
import { Ajv2019 } from "ajv/dist/2019.js";
import { Ajv2020 } from "ajv/dist/2020.js";
import type { ToolBase } from "../tool/tool-base.js";

type Validator = ValidateFunction | { compileError: string };

// addUsedSchema: false, so two tools whose schemas share an `$id` do not collide in the shared instance.
const OPTIONS = { strict: false, allErrors: true, validateFormats: false, addUsedSchema: false } as const;

/**
 * Checks tool inputs against each tool's JSON Schema. Schemas are compiled once per schema object
 * (a tool whose schema is rebuilt on each access, such as reset_tools, is recompiled); the dialect
 * follows `$schema` (draft-07 when absent, 2019-09 and 2020-12 when declared).
 */
export class InputValidator {
  private readonly ajv = { draft7: new Ajv(OPTIONS), draft2019: new Ajv2019(OPTIONS), draft2020: new Ajv2020(OPTIONS) };
  private readonly compiled = new WeakMap<object, Validator>();

  /** Undefined when the input is valid; otherwise a message listing every problem. */
  problems(tool: ToolBase<any>, input: unknown): string | undefined {
    return this.schemaProblems(tool.inputSchema, input);
  }

  /**
   * The same check against a schema object itself (`schemaName`: `inputSchema`, `outputSchema`):
   * `AgentTools.executeToolById` checks registry tools' inputs with it, as a Toolkit does.
   */
  schemaProblems(schema: Record<string, unknown>, value: unknown, schemaName = "inputSchema"): string | undefined {
    let validator = this.compiled.get(schema);
    if (!validator) {
      validator = this.compile(schema);
      this.compiled.set(schema, validator);
    }
    if ("compileError" in validator) {
      return `the tool's own ${schemaName} is invalid (${validator.compileError}); fix the tool's ${schemaName}`;
    }
    if (validator(value)) return undefined;
    const root = schemaName === "outputSchema" ? "result" : "input";
    return (validator.errors ?? [])
      .map((error) => `${error.instancePath || root} ${error.message ?? "is invalid"}${describeParams(error.params)}`)
      .join("; ");
  }

  private compile(schema: Record<string, unknown>): Validator {
    const dialect = String(schema["$schema"] ?? "");
    const ajv = dialect.includes("2020-12") ? this.ajv.draft2020 : dialect.includes("2019-09") ? this.ajv.draft2019 : this.ajv.draft7;
    try {
      return ajv.compile(schema);
    } catch (error) {
      return { compileError: (error as Error).message };
    } finally {
      // The WeakMap above holds the validator; Ajv's own cache would hold every schema object forever.
      ajv.removeSchema(schema);
    }
  }
}

function describeParams(params: Record<string, unknown>): string {
  if (typeof params["additionalProperty"] === "string") return ` (${params["additionalProperty"]})`;
  if (Array.isArray(params["allowedValues"])) return ` (${params["allowedValues"].map((v) => JSON.stringify(v)).join(", ")})`;
  return "";
}
