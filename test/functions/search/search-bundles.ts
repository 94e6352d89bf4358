/**
 * Bundles for the search tests: any spec fields around a tiny Python tool that echoes its input
 * (so a test can see exactly what the tool received), packed like docs/authoring.md's bundles.
 */
import { buildBundle, zipFiles } from "../../support/bundles.js";
import { uploadBundle } from "../../support/registry.js";

export interface SearchToolSpec {
  tool_id: string;
  tool_search_description?: string;
  tool_tags?: string[];
  tool_type?: string;
  version?: string;
  [field: string]: unknown;
}

const ECHO_TOOL = `class AgentSpaceV1Tool:
    def __init__(self, tool_id, tool_data):
        self.tool_id = tool_id

    def execute(self, input_data):
        return {"tool_id": self.tool_id, "received": input_data}
`;

let echoZip: Uint8Array | undefined;

export function echoToolBundle({ version = "1.0.0", ...spec }: SearchToolSpec, manPage = `# ${spec.tool_id}\n`): Uint8Array {
  echoZip ??= zipFiles({ "code/": { type: "directory" }, "code/function.py": ECHO_TOOL });
  return buildBundle({
    spec: { tool_runtime_type: "python", tool_metadata: { version }, ...spec },
    toolZip: echoZip,
    toolMd: manPage,
  });
}

/** Uploads and fails loudly on anything but 200. */
export async function uploadOrThrow(url: string, token: string, bundle: Uint8Array): Promise<void> {
  const { status, body } = await uploadBundle(url, token, bundle);
  if (status !== 200) throw new Error(`upload failed with ${status}: ${JSON.stringify(body)}`);
}
