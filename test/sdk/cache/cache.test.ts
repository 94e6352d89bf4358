import { homedir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { resolveCacheDir } from "../../../sdk/src/cache/cache-dir.js";

const saved = process.env.AGENT_TOOLS_CACHE_DIR;

afterEach(() => {
  if (saved === undefined) delete process.env.AGENT_TOOLS_CACHE_DIR;
  else process.env.AGENT_TOOLS_CACHE_DIR = saved;
});

describe("resolveCacheDir", () => {
  it("prefers the option, then AGENT_TOOLS_CACHE_DIR, then ~/.cache/agent-tools", () => {
    process.env.AGENT_TOOLS_CACHE_DIR = "/tmp/from-env";
    expect(resolveCacheDir("/tmp/from-option")).toBe("/tmp/from-option");
    expect(resolveCacheDir()).toBe("/tmp/from-env");
    delete process.env.AGENT_TOOLS_CACHE_DIR;
    expect(resolveCacheDir()).toBe(join(homedir(), ".cache", "agent-tools"));
    expect(resolveCacheDir("relative")).toBe(join(process.cwd(), "relative"));
  });
});
