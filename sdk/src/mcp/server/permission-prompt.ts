import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { formatRule } from "../../permission/rule-syntax.js";
import type { ConfirmResult, ConfirmationRequest } from "../../toolkit/tool-call.js";

/** The user's answer, or why nobody could be asked (the call is then refused with that text). */
export type PromptAnswer = { kind: "answered"; result: ConfirmResult } | { kind: "refused"; message: string };

const ALLOW_ONCE = "allow_once";
const ALLOW_ALWAYS = "allow_always";
const DENY = "deny";
/** A person reads and decides: far longer than a protocol round trip. */
const USER_ANSWER_TIMEOUT_MS = 10 * 60_000;
const INPUT_PREVIEW_CHARS = 1000;

/**
 * Puts an ASK to the user through MCP form elicitation: allow once, always allow (remembering the
 * engine's suggested rule for the rest of the session), or deny. A client without elicitation gets
 * a refusal that names the rule to add, so its user can allow the tool on purpose.
 */
export async function askUser(server: Server, request: ConfirmationRequest): Promise<PromptAnswer> {
  if (server.getClientCapabilities()?.elicitation?.form === undefined) {
    return {
      kind: "refused",
      message:
        `${describeAsk(request)} This MCP client cannot ask you (it does not ` +
        `support elicitation), so the call was refused. ${howToAllow(request)}`,
    };
  }
  const remember = request.bypassImmune ? [] : request.suggestions;
  const choices = [
    { const: ALLOW_ONCE, title: "Allow once" },
    ...(remember.length > 0
      ? [{ const: ALLOW_ALWAYS, title: `Always allow (${remember.map(formatRule).join(", ")}) for this session` }]
      : []),
    { const: DENY, title: "Deny" },
  ];
  try {
    const answer = await server.elicitInput(
      {
        mode: "form",
        message: `${describeAsk(request)}\nTool: ${request.name}\nInput: ${preview(request.input)}`,
        requestedSchema: {
          type: "object",
          properties: { decision: { type: "string", title: "Decision", oneOf: choices } },
          required: ["decision"],
        },
      },
      { timeout: USER_ANSWER_TIMEOUT_MS },
    );
    const decision = answer.action === "accept" ? answer.content?.decision : DENY;
    if (decision === ALLOW_ONCE) return { kind: "answered", result: { toolCallId: request.id, confirmed: true } };
    if (decision === ALLOW_ALWAYS) return { kind: "answered", result: { toolCallId: request.id, confirmed: true, rules: remember } };
    return { kind: "answered", result: { toolCallId: request.id, confirmed: false } };
  } catch (error) {
    return {
      kind: "refused",
      message:
        `${describeAsk(request)} Asking you failed (${error instanceof Error ? error.message : String(error)}), ` +
        `so the call was refused. ${howToAllow(request)}`,
    };
  }
}

function describeAsk(request: ConfirmationRequest): string {
  return `${request.message}${request.reason ? ` (${request.reason})` : ""}.`;
}

function howToAllow(request: ConfirmationRequest): string {
  if (request.bypassImmune) return "It is a safety check that allow rules do not silence; run the call yourself if you mean it.";
  const rule = request.suggestions[0] === undefined ? request.name : formatRule(request.suggestions[0]);
  return `To allow it, start agent-tools mcp with --allow '${rule}', or add "${rule}" to permissions.allow in .agent-tools/settings.json.`;
}

function preview(input: Record<string, unknown>): string {
  const text = JSON.stringify(input);
  return text.length <= INPUT_PREVIEW_CHARS ? text : `${text.slice(0, INPUT_PREVIEW_CHARS)}… (${text.length} characters)`;
}
