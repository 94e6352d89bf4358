import { randomUUID } from "node:crypto";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import type { ToolBase } from "../../tool/tool-base.js";
import type { ConfirmationRequest, ToolExecutionEvent } from "../../toolkit/tool-call.js";
import type { Toolkit } from "../../toolkit/toolkit.js";
import { InputValidator } from "../../toolkit/input-validator.js";
import { VERSION } from "../../version.js";
import { errorResult, toCallToolResult } from "./call-tool-result.js";
import { askUser } from "./permission-prompt.js";

export interface McpToolServerOptions {
  /** How the server introduces itself to clients. Default "agent-tools". */
  name?: string;
  /** Shown to the client's model: what these tools are for. */
  instructions?: string;
}

/**
 * An MCP server (one per client connection) offering a Toolkit's tools, every call decided by the
 * Toolkit's permission engine: an unknown tool or input not matching the tool's schema is a
 * JSON-RPC error (-32602, invalid params) before anything runs, DENY refused with the reason, ASK
 * put to the user through elicitation (see `askUser`), ALLOW run. A tool's `outputSchema` is
 * listed, and its result comes back as `structuredContent` checked against it. Connect it to a
 * transport (`serveMcpOverStdio`, or `serveMcpOverHttp`).
 *
 * @example
 * const toolkit = new Toolkit({ tools: [new Read(), new Grep()], engine: PermissionEngine.fromSettings() });
 * const host = await serveMcpOverStdio(() => createMcpToolServer(toolkit));
 * await host.closed; // the client closed stdin
 */
export function createMcpToolServer(toolkit: Toolkit, options: McpToolServerOptions = {}): Server {
  const server = new Server(
    { name: options.name ?? "agent-tools", version: VERSION },
    { capabilities: { tools: {} }, ...(options.instructions === undefined ? {} : { instructions: options.instructions }) },
  );
  const outputs = new InputValidator();
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: toolkit.getTools().map(describeTool) }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const { name } = request.params;
    const input = request.params.arguments ?? {};
    const found = toolkit.resolve(name);
    if ("error" in found) throw new McpError(ErrorCode.InvalidParams, found.error.message);
    const problems = toolkit.validateInput(found.tool, input);
    if (problems !== undefined) throw new McpError(ErrorCode.InvalidParams, `Invalid arguments for tool ${name}: ${problems}.`);
    const result = await callGoverned(server, toolkit, name, input, extra.signal);
    return checkedOutput(found.tool, result, outputs);
  });
  return server;
}

function describeTool(tool: ToolBase<any>): Tool {
  return {
    name: tool.name,
    description: tool.description,
    inputSchema: tool.inputSchema as Tool["inputSchema"],
    ...(tool.outputSchema === undefined ? {} : { outputSchema: tool.outputSchema as Tool["outputSchema"] }),
    annotations: { readOnlyHint: tool.isReadOnly },
  };
}

/**
 * A tool that declares an output schema promises structured content matching it (hosts check it
 * and fail the call otherwise), so a result that breaks the promise is the tool's error, said plainly.
 */
function checkedOutput(tool: ToolBase<any>, result: CallToolResult, validator: InputValidator): CallToolResult {
  if (tool.outputSchema === undefined || result.isError) return result;
  if (result.structuredContent === undefined)
    return errorResult(`Tool ${tool.name} declares an output schema but returned no JSON object; its output was: ${textOf(result)}`);
  const problems = validator.schemaProblems(tool.outputSchema, result.structuredContent, "outputSchema");
  return problems === undefined
    ? result
    : errorResult(`Tool ${tool.name} returned a result that does not match its output schema: ${problems}.`);
}

function textOf(result: CallToolResult): string {
  return result.content.map((block) => (block.type === "text" ? block.text : `[${block.type}]`)).join("\n");
}

/** One call through the Toolkit's executor; an ASK waits for the user's answer, then the executor resumes. */
async function callGoverned(
  server: Server,
  toolkit: Toolkit,
  name: string,
  input: Record<string, unknown>,
  signal: AbortSignal,
): Promise<CallToolResult> {
  const executor = toolkit.createExecutor({ signal });
  let events: AsyncIterable<ToolExecutionEvent> = executor.run([{ id: randomUUID(), name, input }]);
  for (;;) {
    let ask: ConfirmationRequest | undefined;
    for await (const event of events) {
      if (event.type === "require_user_confirm") ask = event.toolCalls[0];
      // The engine's own refusal: say why, so the user knows which rule or mode to change.
      if (event.type === "tool_denied" && event.decision)
        return errorResult(`${event.decision.message}${event.decision.reason ? ` (${event.decision.reason})` : ""}.`);
    }
    if (ask === undefined) break;
    const answer = await askUser(server, ask);
    if (answer.kind === "refused") return errorResult(answer.message);
    events = executor.resume({ confirmResults: [answer.result] });
  }
  const [response] = executor.responses;
  return response === undefined ? errorResult(`Tool "${name}" produced no result.`) : toCallToolResult(response);
}
