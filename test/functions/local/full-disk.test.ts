// Out of space is an answer, not a crash (docs/durability.md, "Out of space"): the local server on a
// small real tmpfs (test/support/small-disk.ts) answers writes 507 while the disk is full, keeps
// serving reads, takes writes again once space is freed without a restart, starts read-only on a
// full disk and says so, and leaves nothing half-written; its emulators answer a full disk instead
// of ending the process, and a LevelDB that keeps failing writes is reopened.
import type { ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { SPACE_RESERVE_FILE } from "../../../functions/local/disk-space.js";
import { fixtureBundle, type FixtureBundle } from "../../support/bundles.js";
import { uploadBundle } from "../../support/registry.js";
import { mountNamespace, startSmallDisk, type SmallDisk } from "../../support/small-disk.js";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const TOKEN = "full-disk-token";
const namespace = mountNamespace();
const skipReason = "reason" in namespace ? namespace.reason : undefined;
if (skipReason !== undefined) console.warn(`full-disk tests skipped: ${skipReason}`);

let disk: SmallDisk;
let tools: FixtureBundle[];

beforeAll(async () => {
  if (skipReason !== undefined) return;
  disk = await startSmallDisk(48);
  tools = await Promise.all(
    ["full-a", "full-b", "full-c", "full-d"].map((toolId) => fixtureBundle("text-stats", { spec: { tool_id: toolId } })),
  );
});
afterEach(() => disk?.free());
afterAll(async () => {
  await disk?.close();
});

interface Server {
  process: ChildProcess;
  url: string;
  stdout: string;
}

async function startServer(): Promise<Server> {
  const child = disk.spawn(
    process.execPath,
    ["--openssl-legacy-provider", "--import", "tsx", "functions/local/main.ts", "--port", "0", "--data-dir", disk.path("data")],
    { cwd: ROOT, env: { ...process.env, REGISTRY_TOKEN: TOKEN } },
  );
  let stdout = "";
  let stderr = "";
  child.stderr!.on("data", (chunk) => (stderr += String(chunk)));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on("data", (chunk) => {
      stdout += String(chunk);
      const match = /listening on (http:\/\/\S+)/.exec(stdout);
      if (match) setTimeout(() => resolve(match[1]!), 100); // the lines after it (read-only) too
    });
    child.once("exit", (code) => reject(new Error(`registry exited with ${code} before listening: ${stderr}`)));
  });
  return {
    process: child,
    url,
    get stdout() {
      return stdout;
    },
  };
}

async function stop(server: Server, signal: NodeJS.Signals): Promise<void> {
  const exited = new Promise((resolve) => server.process.once("exit", resolve));
  server.process.kill(signal);
  await exited;
}

async function send(url: string, method: string, path: string, body?: unknown) {
  const response = await fetch(`${url}${path}`, {
    method,
    headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, headers: response.headers, body: (await response.json()) as Record<string, unknown> };
}

/** Every kind of write, each refused whole: 507, the documented error, and when to retry. */
async function expectWritesRefused(url: string): Promise<void> {
  const form = new FormData();
  form.set("file", new Blob([tools[3]!.bundle as Uint8Array<ArrayBuffer>]), "bundle.zip");
  const uploaded = await fetch(`${url}/tools/upload`, { method: "POST", body: form, headers: { authorization: `Bearer ${TOKEN}` } });
  const answers = [
    { what: "upload", status: uploaded.status, headers: uploaded.headers, body: (await uploaded.json()) as Record<string, unknown> },
    { what: "PUT", ...(await send(url, "PUT", "/tools/full-a", { tool_search_description: "edited on a full disk" })) },
    { what: "PATCH", ...(await send(url, "PATCH", "/tools/full-a/versions/1.0.0", { status: "deprecated", message: "full" })) },
    { what: "DELETE", ...(await send(url, "DELETE", "/tools/full-b")) },
    { what: "token", ...(await send(url, "POST", "/tokens", { name: "full", scope: ["full-*"], actions: ["publish"] })) },
    { what: "large upload", ...(await send(url, "POST", "/tools/uploads", { size: 4096 })) },
    { what: "doctor", ...(await send(url, "POST", "/registry/doctor", { fix: true })) },
  ];
  for (const answer of answers) {
    expect(answer.status, answer.what).toBe(507);
    expect(answer.body.error, answer.what).toBe("Insufficient Storage");
    expect(answer.headers.get("retry-after"), answer.what).toBe("60");
  }
}

/** Reads of every kind answer while the disk is full. */
async function expectReadsServed(url: string, published: string[]): Promise<void> {
  const listed = ((await (await fetch(`${url}/tools`)).json()) as { tool_id: string }[]).map((entry) => entry.tool_id);
  expect(listed).toEqual(published);
  for (const toolId of published) {
    expect((await fetch(`${url}/tools/${toolId}`)).status, toolId).toBe(200);
    expect((await fetch(`${url}/tools/${toolId}/versions`)).status, toolId).toBe(200);
  }
  const archive = new Uint8Array(await (await fetch(`${url}/tools/full-a/archive`)).arrayBuffer());
  expect(createHash("sha256").update(archive).digest("hex")).toBe(createHash("sha256").update(tools[0]!.toolZip).digest("hex"));
  expect((await fetch(`${url}/tools/search?q=text`)).status).toBe(200);
  expect((await fetch(`${url}/health`)).status).toBe(200);
}

describe.skipIf(skipReason !== undefined)("a full disk", () => {
  it("answers every write 507 while the disk is full, serves every " +
    "read, and takes writes again once space is freed, without a restart", async () => {
    const server = await startServer();
    try {
      for (const tool of tools.slice(0, 2)) expect((await uploadBundle(server.url, TOKEN, tool.bundle)).status).toBe(200);
      expect(existsSync(disk.outside("data", SPACE_RESERVE_FILE))).toBe(true);
      disk.fill();
      await expectWritesRefused(server.url);
      await expectReadsServed(server.url, ["full-a", "full-b"]);
      expect(server.process.exitCode).toBeNull();

      disk.free();
      expect((await uploadBundle(server.url, TOKEN, tools[2]!.bundle)).status).toBe(200);
      expect((await send(server.url, "PUT", "/tools/full-a", { tool_search_description: "edited once there was room" })).status).toBe(200);
      // Nothing the refused writes began is left: the doctor finds nothing to repair.
      const doctor = await send(server.url, "POST", "/registry/doctor", { graceSeconds: 0, verifyArchives: true });
      expect(doctor.body.findings).toEqual([]);
    } finally {
      await stop(server, "SIGTERM");
    }
  }, 120_000);

  it("starts read-only on a full disk and says so, then takes writes once space is freed", async () => {
    disk.fill();
    const server = await startServer();
    try {
      expect(server.stdout).toMatch(
        /Read-only: the disk of .* is full \(\d+ bytes free; released the \d+-byte space reserve to open the database\)/,
      );
      await expectReadsServed(server.url, ["full-a", "full-b", "full-c"]);
      await expectWritesRefused(server.url);

      disk.free();
      expect((await uploadBundle(server.url, TOKEN, tools[3]!.bundle)).status).toBe(200);
      expect(existsSync(disk.outside("data", SPACE_RESERVE_FILE))).toBe(true);
      const leftovers = readdirSync(disk.outside("data"), { recursive: true })
        .map(String)
        .filter((name) => name.endsWith(".partial"));
      expect(leftovers).toEqual([]);
    } finally {
      await stop(server, "SIGKILL");
    }
  }, 120_000);

  it("is answered by the emulators themselves, past the registry's check: no " +
    "crash, nothing half-written, and LevelDB reopened once it keeps failing", async () => {
    const child = disk.spawn(
      process.execPath,
      ["--import", "tsx", "test/functions/local/full-disk-storage.ts", disk.path("emulators", "data")],
      {
        cwd: ROOT,
      },
    );
    let stdout = "";
    let stderr = "";
    child.stdout!.on("data", (chunk) => (stdout += String(chunk)));
    child.stderr!.on("data", (chunk) => (stderr += String(chunk)));
    const code = await new Promise((resolve) => child.once("exit", resolve));
    expect(code, stderr).toBe(0);
    const report = JSON.parse(stdout.trim().split("\n").at(-1)!) as Record<string, unknown>;
    expect(report).toEqual({
      before: ["ok", "ok"],
      full: { archive: "InsufficientStorage 507", item: "InsufficientStorage 507", free: 0 },
      readsWhileFull: ["ok", "ok"],
      leftBehind: [],
      afterFree: ["ok", "ok"],
      flushFailed: "InsufficientStorage 507",
      stuckAfterFree: "InsufficientStorage 507",
      afterSpaceCheck: "ok",
    });
  }, 120_000);
});
