import { randomUUID } from "node:crypto";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult, type Tool } from "@modelcontextprotocol/sdk/types.js";
import type { ToolBase } from "../../tool/tool-base.js";
import type { ConfirmationRequest, ToolExecutionEvent } from "../../toolkit/tool-call.js";
import type { Toolkit } from "../../toolkit/toolkit.js";
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
 * Toolkit's permission engine: input validated against the tool's schema, DENY refused with the
 * reason, ASK put to the user through elicitation (see `askUser`), ALLOW run. Connect it to a
 * transport (`StdioServerTransport`, or `serveMcpOverHttp`).
 *
 * @example
 * const toolkit = new Toolkit({ tools: [new Read(), new Grep()], engine: PermissionEngine.fromSettings() });
 * await createMcpToolServer(toolkit).connect(new StdioServerTransport());
 */
export function createMcpToolServer(toolkit: Toolkit, options: McpToolServerOptions = {}): Server {
  const server = new Server(
    { name: options.name ?? "agent-tools", version: VERSION },
    { capabilities: { tools: {} }, ...(options.instructions === undefined ? {} : { instructions: options.instructions }) },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: toolkit.getTools().map(describeTool) }));
  server.setRequestHandler(CallToolRequestSchema, (request, extra) =>
    callGoverned(server, toolkit, request.params.name, request.params.arguments ?? {}, extra.signal),
  );
  return server;
}

function describeTool(tool: ToolBase<any>): Tool {
  return {
    name: tool.name,
    description: tool.description,
    inputSchema: tool.inputSchema as Tool["inputSchema"],
    annotations: { readOnlyHint: tool.isReadOnly },
  };
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
