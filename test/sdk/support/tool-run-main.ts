/**
 * Adds one local tool to a fresh AgentTools, calls it once, and prints the outcome as one JSON
 * line: `{"value": …}` or `{"error": {"code", "message"}}`. `runToolAsUser` starts it as another
 * user, so a test sees the SDK as an unprivileged agent runs it.
 *
 *   node --import tsx test/sdk/support/tool-run-main.ts '{"options": {…}, "path": "/tools/x", "toolId": "x"}'
 */
import { AgentTools, type AgentToolsOptions } from "../../../sdk/src/agent-tools.js";

const request = JSON.parse(process.argv[2]!) as { options: AgentToolsOptions; path: string; toolId: string; input?: unknown };
const tools = new AgentTools(request.options);
try {
  await tools.add({ path: request.path });
  console.log(JSON.stringify({ value: await tools.executeToolById(request.toolId, request.input ?? {}) }));
} catch (error) {
  const { code, message } = error as { code?: string; message: string };
  console.log(JSON.stringify({ error: { code, message } }));
} finally {
  await tools.close();
}
