import { RegistryError } from "../http/registry-error.js";

export function toolNotFound(toolId: string, version?: string): RegistryError {
  return new RegistryError(
    404,
    "Tool not found",
    version === undefined
      ? `No tool with id "${toolId}" is published; list the published tools with GET /tools.`
      : `Tool "${toolId}" has no version "${version}"; list its versions with GET /tools/${toolId}/versions.`,
  );
}
