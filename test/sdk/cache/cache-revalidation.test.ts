import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { AgentTools, RegistryUnavailableError } from "@agent-tools/sdk";
import { deleteTool } from "../../../sdk/src/publish/delete-tool.js";
import { buildBundle, readFixtureSpec, zipFiles } from "../../support/bundles.js";
import { uploadBundle } from "../../support/registry.js";
import { registryForFile } from "../../support/registry-for-file.js";

const suite = registryForFile({}, "agent-tools-revalidate-");

/** A Python tool whose `execute` answers `answer`, published as `toolId@version`. */
async function publishAnswering(toolId: string, version: string, answer: string): Promise<void> {
  // It takes no input: the text-stats schema it starts from would require `text`.
  const spec = {
    ...readFixtureSpec("text-stats"),
    tool_id: toolId,
    tool_metadata: { version },
    tool_api_spec: { entrypoints: { execute: { input: { type: "object" } } } },
  };
  const code =
    `class AgentSpaceV1Tool:\n    def __init__(self, tool_id, tool_data):\n        ` +
    `pass\n\n    def execute(self, input_data):\n        return ${JSON.stringify(answer)}\n`;
  const toolZip = zipFiles({ "code/function.py": code });
  const result = await uploadBundle(suite.registry.url, suite.registry.token, buildBundle({ spec, toolZip, toolMd: `# ${toolId}` }));
  expect(result.status).toBe(200);
}

/** An AgentTools whose registry requests are recorded as "METHOD path status". */
function recordingAgent(cacheDir: string, url = suite.registry.url) {
  const requests: string[] = [];
  const tools = new AgentTools({
    toolsDbUrl: url,
    cacheDir,
    fetch: async (input, init) => {
      const response = await fetch(input, init);
      requests.push(`${init?.method ?? "GET"} ${new URL(String(input)).pathname} ${response.status}`);
      return response;
    },
  });
  return { tools, requests };
}

const closedRegistryUrl = "http://127.0.0.1:9"; // the discard port: nothing listens, connections are refused

describe("pinned versions", () => {
  it("revalidate with one 304 when unchanged, and run new code after a re-publish of the same version", async () => {
    const cacheDir = join(suite.folder, "republish");
    await publishAnswering("answer-tool", "1.0.0", "old code");
    const first = recordingAgent(cacheDir);
    await first.tools.add("answer-tool@1.0.0");
    expect(await first.tools.executeToolById("answer-tool", {})).toBe("old code");
    await first.tools.close();

    const second = recordingAgent(cacheDir);
    await second.tools.add("answer-tool@1.0.0");
    expect(second.requests).toEqual(["GET /tools/answer-tool/versions/1.0.0 304"]);
    expect(await second.tools.executeToolById("answer-tool", {})).toBe("old code");

    await deleteTool("answer-tool", { registryUrl: suite.registry.url, token: suite.registry.token });
    await publishAnswering("answer-tool", "1.0.0", "new code");
    second.requests.length = 0;
    await second.tools.add("answer-tool@1.0.0");
    expect(second.requests[0]).toBe("GET /tools/answer-tool/versions/1.0.0 200");
    expect(second.requests.some((request) => request.endsWith("/archive 200"))).toBe(true);
    expect(await second.tools.executeToolById("answer-tool", {})).toBe("new code");
    await second.tools.close();
  });

  it("are served from the cache when the registry cannot be reached, even if only an unpinned add cached them", async () => {
    const cacheDir = join(suite.folder, "offline");
    await publishAnswering("offline-tool", "2.0.0", "cached answer");
    const online = new AgentTools({ toolsDbUrl: suite.registry.url, cacheDir });
    await online.add("offline-tool"); // unpinned
    await online.close();

    const offline = new AgentTools({ toolsDbUrl: closedRegistryUrl, cacheDir });
    expect(await offline.add("offline-tool@2.0.0")).toMatchObject({ toolId: "offline-tool", version: "2.0.0" });
    expect(await offline.executeToolById("offline-tool", {})).toBe("cached answer");
    await offline.remove("offline-tool");
    // Unpinned and offline: the highest cached version.
    expect(await offline.add("offline-tool")).toMatchObject({ version: "2.0.0" });
    await offline.close();
  });

  it("fail as unreachable when the registry is down and nothing is cached", async () => {
    const offline = new AgentTools({ toolsDbUrl: closedRegistryUrl, cacheDir: join(suite.folder, "empty") });
    await expect(offline.add("never-seen@1.0.0")).rejects.toBeInstanceOf(RegistryUnavailableError);
    await expect(offline.add("never-seen")).rejects.toBeInstanceOf(RegistryUnavailableError);
    await offline.close();
  });

  it("do not run a cached version the registry has since deleted", async () => {
    const cacheDir = join(suite.folder, "deleted");
    await publishAnswering("deleted-tool", "1.0.0", "gone");
    const tools = new AgentTools({ toolsDbUrl: suite.registry.url, cacheDir });
    await tools.add("deleted-tool@1.0.0");
    await tools.close();
    await deleteTool("deleted-tool", { registryUrl: suite.registry.url, token: suite.registry.token });
    await expect(tools.add("deleted-tool@1.0.0")).rejects.toMatchObject({ code: "TOOL_NOT_FOUND" });
    await tools.close();
  });
});
