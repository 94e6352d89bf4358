import type { ToolRecord } from "../registry-client/tool-record.js";

/** What a registry tool needs from `AgentTools`: run an added tool, and read its record. */
export interface RegistryToolSource {
  executeToolById(toolId: string, input: unknown): Promise<unknown>;
  getTool(toolId: string): { toolId: string; record: ToolRecord } | undefined;
  list?(): { toolId: string; record: ToolRecord }[];
}
