// Crash suite: a real `npm start` process (functions/local/main.ts) is killed with SIGKILL at random
// points while uploads, duplicate uploads, new versions and deletes are in flight, then restarted on
// the same data folder. Afterwards every acknowledged version downloads byte-identical, latest is the
// highest stored version, unacknowledged uploads complete when retried, and after `doctor --fix`
// nothing is orphaned. Bounded: ROUNDS kills, each after at most MAX_KILL_DELAY_MS.
import { spawn, type ChildProcess } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import semver from "semver";
import { afterAll, describe, expect, it } from "vitest";
import { buildBundle, FIXTURE_TOOLS_DIR, readFixtureSpec, zipFiles } from "../../support/bundles.js";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const TOKEN = "crash-suite-token";
const ROUNDS = 3;
const MAX_KILL_DELAY_MS = 600;
const TOOLS = ["crash-a", "crash-b", "crash-c"];
const VERSIONS_PER_ROUND = 2;

interface Release {
  toolId: string;
  version: string;
  bundle: Uint8Array;
  toolZip: Uint8Array;
}

const dataDir = await mkdtemp(join(tmpdir(), "agent-tools-crash-"));
let server: { process: ChildProcess; url: string } | undefined;

afterAll(async () => {
  server?.process.kill("SIGKILL");
  await rm(dataDir, { recursive: true, force: true });
});

/** A release with its own incompressible quarter megabyte, so kills land inside archive writes too. */
function release(toolId: string, version: string): Release {
  const toolZip = zipFiles({
    "code/function.py": readFileSync(join(FIXTURE_TOOLS_DIR, "text-stats/code/function.py")),
    "code/payload.bin": randomBytes(256 * 1024),
  });
  const spec = { ...readFixtureSpec("text-stats"), tool_id: toolId, tool_metadata: { version } };
  return { toolId, version, toolZip, bundle: buildBundle({ spec, toolZip, toolMd: `# ${toolId} ${version}\n` }) };
}

async function startServer(): Promise<{ process: ChildProcess; url: string }> {
  const child = spawn(
    process.execPath,
    ["--openssl-legacy-provider", "--import", "tsx", "functions/local/main.ts", "--port", "0", "--data-dir", dataDir],
    {
      cwd: ROOT,
      env: { ...process.env, REGISTRY_TOKEN: TOKEN },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let stderr = "";
  child.stderr!.on("data", (chunk) => (stderr += String(chunk)));
  const url = await new Promise<string>((resolve, reject) => {
    let stdout = "";
    child.stdout!.on("data", (chunk) => {
      stdout += String(chunk);
      const match = /listening on (http:\/\/\S+)/.exec(stdout);
      if (match) resolve(match[1]!);
    });
    child.once("exit", (code) => reject(new Error(`registry exited with ${code} before listening: ${stderr}`)));
  });
  return { process: child, url };
}

async function kill(target: { process: ChildProcess }): Promise<void> {
  if (target.process.exitCode !== null || target.process.signalCode !== null) return;
  const exited = new Promise((resolve) => target.process.once("exit", resolve));
  target.process.kill("SIGKILL");
  await exited;
}

async function upload(url: string, item: Release): Promise<number | "no answer"> {
  const form = new FormData();
  form.set("file", new Blob([item.bundle as Uint8Array<ArrayBuffer>]), "bundle.zip");
  try {
    const response = await fetch(`${url}/tools/upload`, { method: "POST", body: form, headers: { authorization: `Bearer ${TOKEN}` } });
    await response.arrayBuffer();
    return response.status;
  } catch {
    return "no answer";
  }
}

async function remove(url: string, toolId: string): Promise<number | "no answer"> {
  try {
    const response = await fetch(`${url}/tools/${toolId}`, { method: "DELETE", headers: { authorization: `Bearer ${TOKEN}` } });
    await response.arrayBuffer();
    return response.status;
  } catch {
    return "no answer";
  }
}

describe("crash suite", () => {
  it(`survives ${ROUNDS} SIGKILLs mid-upload, mid-duplicate and mid-delete`, async () => {
    const acknowledged = new Map<string, Release>();
    const unacknowledged: Release[] = [];
    const statuses: (number | "no answer")[] = [];
    let minor = 0;
    for (let round = 0; round < ROUNDS; round++) {
      server = await startServer();
      const { url } = server;
      // Each round: new versions of every tool, a duplicate of an acknowledged one, and a doomed tool
      // uploaded and deleted, all at once; the kill lands somewhere in the middle.
      const fresh = TOOLS.flatMap((toolId) => Array.from({ length: VERSIONS_PER_ROUND }, (_, i) => release(toolId, `1.${minor + i}.0`)));
      minor += VERSIONS_PER_ROUND;
      const duplicate = [...acknowledged.values()].at(-1);
      const doomed = release(`crash-doomed-${round}`, "1.0.0");
      const work = [
        ...fresh.map(async (item) => {
          const status = await upload(url, item);
          statuses.push(status);
          if (status === 200) acknowledged.set(`${item.toolId}@${item.version}`, item);
          else unacknowledged.push(item);
        }),
        ...(duplicate === undefined ? [] : [upload(url, duplicate).then((status) => void statuses.push(status))]),
        (async () => {
          const status = await upload(url, doomed);
          statuses.push(status);
          if (status === 200) statuses.push(await remove(url, doomed.toolId));
        })(),
      ];
      await new Promise((resolve) => setTimeout(resolve, 50 + Math.random() * MAX_KILL_DELAY_MS));
      await kill(server);
      await Promise.all(work);
    }
    expect(statuses.filter((status) => typeof status === "number" && status >= 500)).toEqual([]);

    server = await startServer();
    const { url } = server;
    // Retrying what was never acknowledged finishes it (200), or finds it finished (409).
    for (const item of unacknowledged) {
      const status = await upload(url, item);
      expect([200, 409], `${item.toolId}@${item.version}`).toContain(status);
      acknowledged.set(`${item.toolId}@${item.version}`, item);
    }
    for (const item of acknowledged.values()) {
      const archive = await fetch(`${url}/tools/${item.toolId}/versions/${item.version}/archive`);
      expect(archive.status, `${item.toolId}@${item.version}`).toBe(200);
      const bytes = Buffer.from(await archive.arrayBuffer());
      expect(createHash("sha256").update(bytes).digest("hex"), `${item.toolId}@${item.version}`).toBe(
        createHash("sha256").update(item.toolZip).digest("hex"),
      );
    }
    for (const toolId of TOOLS) {
      const versions = ((await (await fetch(`${url}/tools/${toolId}/versions`)).json()) as { version: string }[]).map(
        (entry) => entry.version,
      );
      const highest = versions.reduce((a, b) => (semver.gt(a, b) ? a : b));
      expect(((await (await fetch(`${url}/tools/${toolId}`)).json()) as { version: string }).version, toolId).toBe(highest);
      const listed = ((await (await fetch(`${url}/tools?limit=1000`)).json()) as { tool_id: string; version: string }[]).find(
        (entry) => entry.tool_id === toolId,
      );
      expect(listed?.version, toolId).toBe(highest);
    }

    const doctor = async (fix: boolean) => {
      const response = await fetch(`${url}/registry/doctor`, {
        method: "POST",
        headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
        body: JSON.stringify({ fix, graceSeconds: 0, verifyArchives: true }),
      });
      expect(response.status).toBe(200);
      return (await response.json()) as { findings: { kind: string; fixed: boolean; detail: string }[] };
    };
    const repaired = await doctor(true);
    expect(repaired.findings.filter((finding) => !finding.fixed)).toEqual([]);
    expect((await doctor(false)).findings).toEqual([]);
    await kill(server);
  }, 240_000);
});
