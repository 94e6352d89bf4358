import type { PermissionEngine } from "../permission/permission-engine.js";
import { PermissionBehavior, type PermissionDecision } from "../permission/types.js";
import { BUILTIN_ORIGIN, ToolBase, type ToolInputSchema } from "../tool/tool-base.js";
import { ToolChunk } from "../tool/tool-chunk.js";

/** The permission-engine tool names of trust decisions: `PublisherKey(acme:sha256:…)`, `ToolDefinition(text-stats)`. */
export const PUBLISHER_KEY_TOOL_NAME = "PublisherKey";
export const TOOL_DEFINITION_TOOL_NAME = "ToolDefinition";

/** A trust question for the user: a publisher's signing key changed, or a tool's definition did. */
export type TrustRequest =
  | {
      kind: "publisher-key";
      toolId: string;
      owner: string;
      /** The key that signed this version (not pinned yet). */
      keyId: string;
      /** The keys pinned for this owner so far. */
      pinnedKeyIds: string[];
      message: string;
    }
  | {
      kind: "tool-definition";
      toolId: string;
      /** The version that would run with the new definition. */
      version: string;
      /** One readable line per change (`description: "…" → "…"`). */
      changes: string[];
      message: string;
    };

/** `true` accepts (and remembers: the key is pinned, the definition approved); `false` refuses this time. */
export type TrustAsker = (request: TrustRequest) => boolean | Promise<boolean>;

/**
 * Decides a trust question through the permission engine. The question is a protected ASK
 * (`alwaysAsk`): allow rules and BYPASS cannot answer it, only the user can, through `ask`; deny
 * rules refuse it, and so do EXPLORE and DONT_ASK, where nobody answers. Without `ask`, it is refused.
 */
export async function decideTrust(engine: PermissionEngine, ask: TrustAsker | undefined, request: TrustRequest): Promise<boolean> {
  const tool = new TrustQuestion(request.kind === "publisher-key" ? PUBLISHER_KEY_TOOL_NAME : TOOL_DEFINITION_TOOL_NAME);
  const subject = request.kind === "publisher-key" ? `${request.owner}:${request.keyId}` : request.toolId;
  const input = { subject, message: request.message };
  const decision = await engine.checkPermission(tool, input);
  if (decision.behavior !== PermissionBehavior.ASK || ask === undefined) return false;
  const accepted = (await ask(request)) === true;
  engine.recordAnswer(tool, input, { allowed: accepted, answeredBy: "onTrustRequest" });
  return accepted;
}

/** The engine decides on tools, so a trust question is a call of this one. It never runs. */
class TrustQuestion extends ToolBase<{ subject: string; message: string }> {
  override readonly origin = BUILTIN_ORIGIN;
  readonly description = "A change in what a registry tool is or who signed it, for the user to accept.";
  readonly inputSchema: ToolInputSchema = {
    type: "object",
    properties: { subject: { type: "string" }, message: { type: "string" } },
    required: ["subject", "message"],
  };

  constructor(readonly name: string) {
    super();
  }

  checkPermissions(input: { subject: string; message: string }): PermissionDecision {
    return { behavior: PermissionBehavior.ASK, message: input.message, alwaysAsk: true };
  }

  override matchRule(ruleContent: string | undefined, input: { subject: string }): boolean {
    return !ruleContent || ruleContent === input.subject;
  }

  override call(): ToolChunk {
    return ToolChunk.error("Trust questions are decided, never run.");
  }
}
