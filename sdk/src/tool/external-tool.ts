import { PermissionBehavior, type PermissionDecision } from "../permission/types.js";
import { ToolBase, type ToolBaseOptions, type ToolInputSchema } from "./tool-base.js";

export interface ExternalToolOptions extends ToolBaseOptions {
  name: string;
  description: string;
  inputSchema: ToolInputSchema;
  isConcurrencySafe?: boolean;
  isReadOnly?: boolean;
}

/**
 * A tool whose execution is delegated outside the agent (a human operator, another system): the
 * Toolkit emits `require_external_execution` and waits for the result. It still passes the engine
 * first: by default it allows its own dispatch, so deny and ask rules (and EXPLORE mode) still apply.
 * Subclass and override
 * `checkPermissions` for a stricter policy.
 */
export class ExternalTool extends ToolBase {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: ToolInputSchema;
  override isExternalTool = true;

  constructor(options: ExternalToolOptions) {
    super(options);
    this.name = options.name;
    this.description = options.description;
    this.inputSchema = options.inputSchema;
    this.isConcurrencySafe = options.isConcurrencySafe ?? true;
    this.isReadOnly = options.isReadOnly ?? false;
  }

  checkPermissions(): PermissionDecision {
    return { behavior: PermissionBehavior.ALLOW, message: "External tool dispatch is always allowed." };
  }
}
