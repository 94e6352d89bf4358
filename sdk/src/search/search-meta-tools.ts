import type { AgentTools } from "../agent-tools.js";
import type { RegistryToolOptions } from "../registry-tool/registry-tool.js";
import type { Toolkit } from "../toolkit/toolkit.js";
import { AddToolTool } from "./add-tool-tool.js";
import { ToolSearchError } from "./search-errors.js";
import { SearchToolsTool } from "./search-tools-tool.js";

/**
 * Deferred loading: registers `SearchTools` and `AddTool` in `toolkit`, so an agent starts with
 * these two tools and adds registry tools as its task needs them.
 *
 *   const toolkit = new Toolkit();
 *   addSearchMetaTools(new AgentTools({ toolsDbUrl: "http://127.0.0.1:6000" }), toolkit);
 *   // the model calls SearchTools({ query: "count words" }), then AddTool({ tool_id: "text-stats" }),
 *   // then text_stats({ text: "…" }) — each call through the permission engine.
 */
export function addSearchMetaTools(
  tools: AgentTools,
  toolkit: Toolkit,
  toolOptions: Omit<RegistryToolOptions, "name"> = {},
): { searchTools: SearchToolsTool; addTool: AddToolTool } {
  const registry = tools.registry;
  if (registry === undefined) {
    throw new ToolSearchError("REGISTRY_NOT_CONFIGURED", "SearchTools needs a registry: pass toolsDbUrl to new AgentTools().");
  }
  const searchTools = new SearchToolsTool(registry);
  const addTool = new AddToolTool(
    {
      tools: {
        add: (toolId) => tools.add(toolId),
        executeToolById: (id, input) => tools.executeToolById(id, input),
        getTool: (id) => tools.getTool(id),
        getSkill: (id) => tools.getSkill(id),
      },
      toolkit,
    },
    toolOptions,
  );
  toolkit.registerTool(searchTools);
  toolkit.registerTool(addTool);
  return { searchTools, addTool };
}
