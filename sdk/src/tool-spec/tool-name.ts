/**
 * The name a registry tool has in a Toolkit (and in OpenAI's function calling): its id with every
 * character OpenAI refuses in a function name (anything but `[A-Za-z0-9_-]`) as `_`, at most 64
 * characters. The registry checks reserved names on this form, since that is what rules match.
 */
export function toolNameFromId(toolId: string): string {
  return toolId.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 64);
}
