// `npm start` as a user runs it: prints the URL and a first-start token, serves uploads, stops
// cleanly on SIGTERM, and a second start on the same data folder keeps the tools.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixtureBundle } from "../../support/bundles.js";
import { uploadBundle } from "../../support/registry.js";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
let dataDir: string;
const running = new Set<ChildProcess>();

interface Started {
  child: ChildProcess;
  url: string;
  output: () => string;
}

/** Spawns `npm start` in its own process group and waits for the "listening on <url>" line. */
function npmStart(args: string[], env: Record<string, string>): Promise<Started> {
  const child = spawn("npm", ["start", "--silent", "--", ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  running.add(child);
  child.once("exit", () => running.delete(child));
  let output = "";
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const url = /listening on (http:\/\/\S+)/.exec(output)?.[1];
      // The token lines follow the URL line; wait for the last line of the banner.
      if (url && /Write token/.test(output) && (/\n {2}\S+\n/.test(output) || /REGISTRY_TOKEN/.test(output))) {
        resolve({ child, url, output: () => output });
      }
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.once("exit", (code) => reject(new Error(`npm start exited with ${code}: ${output}`)));
  });
}

/** SIGTERM to the whole group (npm, tsx, node), then wait until every process in it is gone and its output is read. */
async function stop(started: Started): Promise<void> {
  const group = -started.child.pid!;
  const closed =
    started.child.exitCode !== null && started.child.stdout!.closed
      ? Promise.resolve()
      : new Promise((resolve) => started.child.once("close", resolve));
  process.kill(group, "SIGTERM");
  for (;;) {
    try {
      process.kill(group, 0);
    } catch {
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await closed;
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), "agent-tools-npm-start-"));
});

afterAll(async () => {
  for (const child of running) {
    try {
      process.kill(-child.pid!, "SIGKILL");
    } catch {
      // already gone
    }
  }
  await rm(dataDir, { recursive: true, force: true });
});

describe("npm start", () => {
  it("prints --help", async () => {
    const child = spawn("npm", ["start", "--silent", "--", "--help"], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise((resolve) => child.once("exit", resolve));
    expect(code).toBe(0);
    for (const word of ["--port", "PORT", "--host", "HOST", "--data-dir", "DATA_DIR", "--token", "REGISTRY_TOKEN"]) {
      expect(output).toContain(word);
    }
  });

  it("starts, prints URL and token once, serves uploads, and keeps tools across a restart", async () => {
    const first = await npmStart(["--port", "0", "--data-dir", dataDir], {});
    expect(first.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const token = /Write token \(shown once[^\n]*\n {2}(\S+)/.exec(first.output())?.[1];
    expect(token).toBeDefined();
    const { bundle, toolZip } = await fixtureBundle("text-stats");
    expect((await uploadBundle(first.url, token!, bundle)).status).toBe(200);
    await stop(first);
    expect(first.output()).toContain("SIGTERM: shutting down");

    const second = await npmStart([], { PORT: "0", DATA_DIR: dataDir });
    expect(second.output()).toContain("write-token.sha256");
    expect(second.output()).not.toContain(token!);
    const entry = (await (await fetch(`${second.url}/tools/text-stats`)).json()) as { tool_source_code_link: string };
    const archive = Buffer.from(await (await fetch(entry.tool_source_code_link)).arrayBuffer());
    expect(archive.equals(Buffer.from(toolZip))).toBe(true);
    // The stored token still writes after the restart.
    const again = await fixtureBundle("text-stats", { version: "1.0.1" });
    expect((await uploadBundle(second.url, token!, again.bundle)).status).toBe(200);
    await stop(second);
  }, 60_000);
});
