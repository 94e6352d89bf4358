import {
  PermissionBehavior,
  ToolBase,
  ToolChunk,
  type PermissionContext,
  type PermissionDecision,
  type ToolInputSchema,
} from "@agent-tools/sdk";

export type OwnVerdict = "allow" | "deny" | "ask" | "safety-ask" | "passthrough";

/**
 * A real tool whose own permission check, read-only-ness and rule matching are set per test, so the
 * engine's step order can be driven cell by cell. Rule content matches when it equals `input.target`.
 */
export class ProbeTool extends ToolBase<{ target?: string }> {
  readonly name: string;
  readonly description = "A tool for exercising the permission engine.";
  readonly inputSchema: ToolInputSchema = { type: "object", properties: { target: { type: "string" } } };
  ownChecks = 0;
  private readonly verdict: OwnVerdict;

  constructor(options: { name?: string; readOnly?: boolean; verdict?: OwnVerdict; mcpName?: string } = {}) {
    super();
    this.name = options.name ?? "Probe";
    this.isReadOnly = options.readOnly ?? false;
    this.verdict = options.verdict ?? "passthrough";
    if (options.mcpName) {
      this.isMcp = true;
      this.mcpName = options.mcpName;
    }
  }

  checkPermissions(_input: { target?: string }, _context: PermissionContext): PermissionDecision {
    this.ownChecks++;
    const message = `own ${this.verdict}`;
    if (this.verdict === "safety-ask") {
      return { behavior: PermissionBehavior.ASK, message, reason: "Safety check: probe", bypassImmune: true };
    }
    return { behavior: this.verdict, message, reason: `own reason ${this.verdict}` };
  }

  override matchRule(ruleContent: string | undefined, input: { target?: string }): boolean {
    return !ruleContent || ruleContent === input.target;
  }

  override call(input: { target?: string }): ToolChunk {
    return ToolChunk.text(`probed ${input.target ?? ""}`);
  }
}
