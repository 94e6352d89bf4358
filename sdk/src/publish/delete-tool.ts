import { registryRequest, type RegistryWriteOptions } from "./registry-request.js";

/** Deletes a tool and all its versions (`DELETE /tools/{id}`); the id may be published again afterwards. */
export function deleteTool(toolId: string, options: RegistryWriteOptions): Promise<Record<string, unknown>> {
  return registryRequest(options, "DELETE", `/tools/${encodeURIComponent(toolId)}`);
}
