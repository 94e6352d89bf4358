import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AgentTools, RegistryUnavailableError, ToolNotFoundError } from "@agent-tools/sdk";
import { fixtureBundle } from "../support/bundles.js";
import { startTestRegistry, uploadBundle, type TestRegistry } from "../support/registry.js";
import { closedPortUrl } from "./support/closed-port.js";
import { TempDirs } from "./support/temp-dirs.js";

const temp = new TempDirs();
let registry: TestRegistry;

async function publish(name: "text-stats" | "binary-increment", version?: string, spec?: Record<string, unknown>) {
  const { bundle } = await fixtureBundle(name, { ...(version ? { version } : {}), ...(spec ? { spec } : {}) });
  const result = await uploadBundle(registry.url, registry.token, bundle);
  expect(result.status, JSON.stringify(result.body)).toBe(200);
}

/** Counts the requests an AgentTools makes, by URL, through the real global fetch. */
function countingFetch(): { fetch: typeof fetch; urls: string[] } {
  const urls: string[] = [];
  return {
    urls,
    fetch: (input, init) => {
      urls.push(String(input instanceof Request ? input.url : input));
      return fetch(input, init);
    },
  };
}

beforeAll(async () => {
  registry = await startTestRegistry();
  await publish("text-stats");
  await publish("text-stats", "1.1.0", { tool_parameters: { lowercase: true, top_n: 1 } });
  await publish("binary-increment");
});

afterAll(async () => {
  await registry?.close();
  await temp.removeAll();
});

describe("AgentTools against the local registry", () => {
  it("runs the issue's example exactly", async () => {
    const tools = new AgentTools({ toolsDbUrl: registry.url, cacheDir: await temp.make() });
    try {
      await tools.add("text-stats", { top_n: 2 });
      expect(await tools.executeToolById("text-stats", { text: "the cat and the hat and the bat" })).toEqual({
        word_count: 8,
        unique_words: 5,
        top_words: ["the", "and"],
      });
      expect(await tools.executeCommand("text-stats", "set_top_n", { top_n: 3 })).toEqual({ top_n: 3 });
      expect(await tools.executeToolById("binary-increment", { value: 41 })).toEqual({ result: 42, status: "success" });
    } finally {
      await tools.close();
    }
  });

  it("adds a pinned version with id@version and reports what was added", async () => {
    // 1.1.0 changes the configuration 1.0.0 was approved with (top_n), so its first call asks.
    const asked: string[] = [];
    const tools = new AgentTools({
      toolsDbUrl: registry.url,
      cacheDir: await temp.make(),
      onTrustRequest: (request) => {
        asked.push(`${request.kind} ${request.toolId}`);
        return true;
      },
    });
    try {
      const old = await tools.add("text-stats@1.0.0");
      expect(old).toMatchObject({ toolId: "text-stats", version: "1.0.0", runtime: "python", source: "registry" });
      expect(old.record.tool_parameters).toEqual({ lowercase: true, top_n: 3 });
      const text = { text: "b a b a c" };
      expect(await tools.executeToolById("text-stats", text)).toMatchObject({ top_words: ["a", "b", "c"] });
      const latest = await tools.add("text-stats");
      expect(latest.version).toBe("1.1.0");
      expect(await tools.executeToolById("text-stats", text)).toMatchObject({ top_words: ["a"] });
      expect(asked).toEqual(["tool-definition text-stats"]);
      expect(tools.list().map((tool) => [tool.toolId, tool.version])).toEqual([["text-stats", "1.1.0"]]);
      expect(await tools.executeToolById("text-stats@1.0.0", text)).toMatchObject({ top_words: ["a", "b", "c"] });
      expect(tools.getTool("text-stats")?.version).toBe("1.0.0");
      expect(tools.getTool("text-stats")?.runtime).toBe("python");
      expect(tools.getTool("nope")).toBeUndefined();
    } finally {
      await tools.close();
    }
  });

  it("serves a re-add from the cache: no archive download, only the entry (a conditional GET for id@version)", async () => {
    const cacheDir = await temp.make();
    const first = countingFetch();
    const tools = new AgentTools({ toolsDbUrl: registry.url, cacheDir, fetch: first.fetch });
    await tools.add("text-stats@1.0.0");
    await tools.add("binary-increment");
    await tools.close();
    expect(first.urls.filter((url) => url.endsWith("/archive"))).toHaveLength(2);

    const again = countingFetch();
    const reused = new AgentTools({ toolsDbUrl: registry.url, cacheDir, fetch: again.fetch });
    try {
      await reused.add("text-stats@1.0.0");
      await reused.add("binary-increment");
      expect(again.urls).toEqual([`${registry.url}/tools/text-stats/versions/1.0.0`, `${registry.url}/tools/binary-increment`]);
      expect(await reused.executeToolById("binary-increment", { value: 1 })).toEqual({ result: 2, status: "success" });
      expect(await readdir(join(cacheDir, "trees"))).toHaveLength(2);
    } finally {
      await reused.close();
    }
  });

  it("shares one cache between concurrent agents: one download result, no partial files left", async () => {
    const cacheDir = await temp.make();
    const agents = [1, 2, 3].map(() => new AgentTools({ toolsDbUrl: registry.url, cacheDir }));
    try {
      await Promise.all(agents.flatMap((agent) => [agent.add("binary-increment"), agent.add("text-stats")]));
      for (const agent of agents) expect(await agent.executeToolById("binary-increment", { value: 0 })).toMatchObject({ result: 1 });
      expect(await readdir(join(cacheDir, "trees"))).toHaveLength(2);
      expect(await readdir(join(cacheDir, "archives"))).toHaveLength(2);
    } finally {
      await Promise.all(agents.map((agent) => agent.close()));
    }
  });

  it(
    "restarts a tool when it is added again with new parameters " +
      "(docs/design/compatibility.md#add-again), and keeps it when nothing changed",
    async () => {
      const tools = new AgentTools({ toolsDbUrl: registry.url, cacheDir: await temp.make() });
      const text = { text: "x y y z z z" };
      try {
        await tools.add("text-stats", { top_n: 1 });
        expect(await tools.executeToolById("text-stats", text)).toMatchObject({ top_words: ["z"] });
        await tools.executeCommand("text-stats", "set_top_n", { top_n: 2 });
        await tools.add("text-stats", { top_n: 1 }); // same record: the running tool and its state stay
        expect(await tools.executeToolById("text-stats", text)).toMatchObject({ top_words: ["z", "y"] });
        await tools.add("text-stats", { top_n: 3, lowercase: false });
        expect(tools.getTool("text-stats")?.record.tool_parameters).toEqual({ lowercase: false, top_n: 3 });
        expect(await tools.executeToolById("text-stats", text)).toMatchObject({ top_words: ["z", "y", "x"] });
      } finally {
        await tools.close();
      }
    },
  );

  it(
    "adds on first execute without add (docs/design/compatibility.md#execute-without-add) " + "and passes merged parameters to binaries",
    async () => {
      const tools = new AgentTools({ toolsDbUrl: registry.url, cacheDir: await temp.make() });
      try {
        expect(await tools.executeToolById("text-stats", { text: "a" })).toEqual({ word_count: 1, unique_words: 1, top_words: ["a"] });
        await tools.add("binary-increment", { step: 5 });
        expect(await tools.executeToolById("binary-increment", { value: 1 })).toEqual({ result: 6, status: "success" });
        expect(await tools.executeCommand("binary-increment", "anything", {})).toEqual({
          success: false,
          message: "management commands not available for binaries",
        });
        expect(await tools.remove("binary-increment")).toBe(true);
        expect(await tools.remove("binary-increment")).toBe(false);
        expect(tools.list().map((tool) => tool.toolId)).toEqual(["text-stats"]);
      } finally {
        await tools.close();
      }
    },
  );

  it("names an unknown tool with the registry's detail, and stays usable", async () => {
    const tools = new AgentTools({ toolsDbUrl: registry.url, cacheDir: await temp.make() });
    try {
      const error = await tools.add("no-such-tool").catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ToolNotFoundError);
      expect(error).toMatchObject({ code: "TOOL_NOT_FOUND", toolId: "no-such-tool", status: 404 });
      expect((error as ToolNotFoundError).detail).not.toBe("");
      await expect(tools.executeToolById("text-stats@9.9.9", {})).rejects.toBeInstanceOf(ToolNotFoundError);
      expect(await tools.executeToolById("binary-increment", { value: 1 })).toMatchObject({ result: 2 });
    } finally {
      await tools.close();
    }
  });

  it("reports a registry that is down as RegistryUnavailableError", async () => {
    const url = await closedPortUrl();
    const tools = new AgentTools({ toolsDbUrl: url, cacheDir: await temp.make(), requestTimeoutMs: 2_000 });
    const error = await tools.add("text-stats").catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RegistryUnavailableError);
    expect((error as Error).message).toContain("ECONNREFUSED");
    expect((error as RegistryUnavailableError).toolId).toBe("text-stats");
    await tools.close();
  });
});

describe("AgentTools with a registry that redirects archive downloads to storage", () => {
  it("follows the redirect to the presigned URL", async () => {
    const redirecting = await startTestRegistry({ archiveDelivery: "redirect" });
    const tools = new AgentTools({ toolsDbUrl: redirecting.url, cacheDir: await temp.make() });
    try {
      const { bundle } = await fixtureBundle("binary-increment");
      expect((await uploadBundle(redirecting.url, redirecting.token, bundle)).status).toBe(200);
      expect(await tools.executeToolById("binary-increment", { value: 41 })).toEqual({ result: 42, status: "success" });
    } finally {
      await tools.close();
      await redirecting.close();
    }
  });
});
