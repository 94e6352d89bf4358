import type { PermissionEngine } from "../../permission/permission-engine.js";
import { PermissionBehavior, type PermissionDecision, type PermissionRule } from "../../permission/types.js";
import { BUILTIN_ORIGIN, ToolBase, type ToolInputSchema } from "../../tool/tool-base.js";
import { ToolChunk } from "../../tool/tool-chunk.js";
import { noCapabilities, type ToolCapabilities } from "./tool-capabilities.js";

/** The permission-engine tool name capability rules use: `Capability(text-stats:network:api.example.com)`. */
export const CAPABILITY_TOOL_NAME = "Capability";

/** One capability a tool declared, as the user is asked about it. */
export interface CapabilityRequest {
  toolId: string;
  /** `<toolId>:<kind>:<value>`: the rule content that allows it. */
  capability: string;
  kind: "network" | "env" | "filesystem";
  /** The engine's reason to ask, and the rules the user may accept to stop being asked. */
  message: string;
  suggestions: PermissionRule[];
}

/** `true`/`false` for this time only; `{ granted, remember: true }` also adds the allow or deny rule to the engine. */
export type CapabilityAnswer = boolean | { granted: boolean; remember?: boolean };

export type CapabilityAsker = (request: CapabilityRequest) => Promise<CapabilityAnswer> | CapabilityAnswer;

/** The capabilities of a manifest as rule contents (`<toolId>:<kind>:<value>`), each able to add itself to a grant. */
export function declaredCapabilities(
  toolId: string,
  capabilities: ToolCapabilities,
): Array<{ id: string; kind: CapabilityRequest["kind"]; addTo(grant: ToolCapabilities): void }> {
  return [
    ...capabilities.network.map((host) => ({
      id: `${toolId}:network:${host}`,
      kind: "network" as const,
      addTo: (grant: ToolCapabilities) => grant.network.push(host),
    })),
    ...capabilities.env.map((name) => ({
      id: `${toolId}:env:${name}`,
      kind: "env" as const,
      addTo: (grant: ToolCapabilities) => grant.env.push(name),
    })),
    ...capabilities.filesystem.map((entry) => ({
      id: `${toolId}:filesystem:${entry.path}:${entry.access}`,
      kind: "filesystem" as const,
      addTo: (grant: ToolCapabilities) => grant.filesystem.push(entry),
    })),
  ];
}

/**
 * Decides each declared capability through the permission engine, as any call is decided: deny
 * and ask rules first, then allow rules, then the mode (BYPASS allows, DONT_ASK and EXPLORE deny).
 * An ASK goes to `ask`, naming the capability; without `ask` it is not granted. What is not
 * granted stays withheld by the sandbox, and a tool that needs it fails with an error naming it.
 */
export async function decideCapabilities(
  toolId: string,
  capabilities: ToolCapabilities,
  engine: PermissionEngine,
  ask: CapabilityAsker | undefined,
): Promise<{ granted: ToolCapabilities; declared: Set<string> }> {
  const entries = declaredCapabilities(toolId, capabilities);
  const granted = noCapabilities();
  const tool = new CapabilityTool();
  for (const entry of entries) {
    const decision = await engine.checkPermission(tool, { capability: entry.id });
    if (decision.behavior === PermissionBehavior.ALLOW) entry.addTo(granted);
    if (decision.behavior !== PermissionBehavior.ASK || ask === undefined) continue;
    const answer = await ask({
      toolId,
      capability: entry.id,
      kind: entry.kind,
      message: decision.message,
      suggestions: decision.suggestions,
    });
    const { granted: yes, remember } = typeof answer === "boolean" ? { granted: answer, remember: false } : answer;
    if (yes) entry.addTo(granted);
    const rule = {
      toolName: CAPABILITY_TOOL_NAME,
      ruleContent: entry.id,
      behavior: yes ? PermissionBehavior.ALLOW : PermissionBehavior.DENY,
      source: "session",
    };
    engine.recordAnswer(
      tool,
      { capability: entry.id },
      { allowed: yes, answeredBy: "onCapabilityRequest", remembered: remember ? [rule] : [] },
    );
    if (remember) engine.addRule(rule);
  }
  return { granted, declared: new Set(entries.map((entry) => entry.id)) };
}

/** `*` in a rule matches any run of characters: `text-stats:*`, `*:network:api.example.com`. */
export function capabilityRuleMatches(ruleContent: string, capability: string): boolean {
  if (!ruleContent.includes("*")) return ruleContent === capability;
  const pattern = ruleContent
    .split("*")
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
    .join(".*");
  return new RegExp(`^${pattern}$`).test(capability);
}

/** The engine decides on tools, so a capability request is a call of this one. It never runs. */
class CapabilityTool extends ToolBase<{ capability: string }> {
  readonly name = CAPABILITY_TOOL_NAME;
  override readonly origin = BUILTIN_ORIGIN;
  readonly description = "A sandbox capability a registry tool declared (network host, environment variable, folder).";
  readonly inputSchema: ToolInputSchema = { type: "object", properties: { capability: { type: "string" } }, required: ["capability"] };

  checkPermissions(input: { capability: string }): PermissionDecision {
    return { behavior: PermissionBehavior.ASK, message: `A registry tool asks for the sandbox capability ${input.capability}` };
  }

  override matchRule(ruleContent: string | undefined, input: { capability: string }): boolean {
    return !ruleContent || capabilityRuleMatches(ruleContent, input.capability);
  }

  override generateSuggestions(input: { capability: string }): PermissionRule[] {
    return [{ toolName: this.name, ruleContent: input.capability, behavior: PermissionBehavior.ALLOW, source: "suggested" }];
  }

  override call(): ToolChunk {
    return ToolChunk.error("Capability requests are decided, never run.");
  }
}
