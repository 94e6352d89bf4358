// Crash suite: a real `npm start` process (functions/local/main.ts) is killed with SIGKILL at random
// points while every kind of write is in flight (uploads, duplicates, new versions, large uploads,
// edits, status changes, version and tool deletes, token and key writes), then restarted on the same
// data folder. Afterwards every acknowledged version downloads byte-identical and every acknowledged
// change shows, latest is the highest stored version, retried unacknowledged writes finish, and
// `doctor --fix` leaves nothing open: a second doctor run finds nothing at all. Bounded: ROUNDS
// kills, each after at most MAX_KILL_DELAY_MS.
import { spawn, type ChildProcess } from "node:child_process";
import { createHash, generateKeyPairSync, randomBytes } from "node:crypto";
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
const ROUNDS = 5;
const MAX_KILL_DELAY_MS = 600;
const TOOLS = ["crash-a", "crash-b", "crash-c"];
const VERSIONS_PER_ROUND = 2;

interface Release {
  toolId: string;
  version: string;
  bundle: Uint8Array;
  toolZip: Uint8Array;
}

type Answer = number | "no answer";

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

/** One request with the admin token; a kill mid-request is "no answer". */
async function send(
  url: string,
  method: string,
  path: string,
  body?: RequestInit["body"],
  json = true,
): Promise<{ status: Answer; body?: unknown }> {
  try {
    const response = await fetch(`${url}${path}`, {
      method,
      headers: { authorization: `Bearer ${TOKEN}`, ...(json && body !== undefined ? { "content-type": "application/json" } : {}) },
      ...(body === undefined ? {} : { body }),
    });
    const text = await response.text();
    return { status: response.status, body: text === "" ? undefined : (JSON.parse(text) as unknown) };
  } catch {
    return { status: "no answer" };
  }
}

function upload(url: string, item: Release): Promise<Answer> {
  const form = new FormData();
  form.set("file", new Blob([item.bundle as Uint8Array<ArrayBuffer>]), "bundle.zip");
  return send(url, "POST", "/tools/upload", form, false).then((answer) => answer.status);
}

/** The large-upload flow: a presigned PUT straight to the emulator, then /complete. */
async function largeUpload(url: string, item: Release): Promise<Answer> {
  const started = await send(url, "POST", "/tools/uploads", JSON.stringify({ size: item.bundle.byteLength }));
  if (started.status !== 201) return started.status;
  const ticket = started.body as { uploadUrl: string; completeUrl: string };
  try {
    await (await fetch(ticket.uploadUrl, { method: "PUT", body: item.bundle as Uint8Array<ArrayBuffer> })).arrayBuffer();
  } catch {
    return "no answer";
  }
  return (await send(url, "POST", new URL(ticket.completeUrl).pathname)).status;
}

/** A status change's body: deprecated takes a message, yanked a reason, active nothing else. */
function statusChange(status: string, why: string): string {
  return JSON.stringify(status === "active" ? { status } : { status, [status === "yanked" ? "reason" : "message"]: why });
}

const publicKeyPem = () => generateKeyPairSync("ed25519").publicKey.export({ type: "spki", format: "pem" }).toString();

describe("crash suite", () => {
  it(`survives ${ROUNDS} SIGKILLs in the middle of every kind of write, and two doctor runs converge`, async () => {
    const acknowledged = new Map<string, Release>();
    const unacknowledged: Release[] = [];
    /** Versions whose status change was acknowledged (the last one sent for each) or that a retry must set. */
    const statuses = new Map<string, { status: string; acknowledged: boolean }>();
    /** Versions deleted, or whose delete a retry must finish. */
    const deletes = new Map<string, boolean>();
    const tokens = new Map<string, boolean>();
    const answers: Answer[] = [];
    let minor = 0;
    for (let round = 0; round < ROUNDS; round++) {
      server = await startServer();
      const { url } = server;
      // Each round: new versions of every tool (one of them through the large-upload flow), a
      // duplicate of an acknowledged one, an edit, a status change and a delete of acknowledged
      // versions, a token and a key, and a doomed tool uploaded and deleted, all at once; the kill
      // lands somewhere in the middle.
      const fresh = TOOLS.flatMap((toolId) => Array.from({ length: VERSIONS_PER_ROUND }, (_, i) => release(toolId, `1.${minor + i}.0`)));
      minor += VERSIONS_PER_ROUND;
      const [large, ...direct] = fresh;
      const published = [...acknowledged.values()];
      // The duplicate, the changed and the removed version come from different tools, so no two
      // writes race on one version and no duplicate brings a deleted version back.
      const duplicate = published.filter((item) => item.toolId === "crash-c").at(-1);
      const changed = published.filter((item) => item.toolId === "crash-a" && !deletes.has(`${item.toolId}@${item.version}`)).at(-1);
      const removed = published.filter((item) => item.toolId === "crash-b" && !deletes.has(`${item.toolId}@${item.version}`)).at(0);
      const doomed = release(`crash-doomed-${round}`, "1.0.0");
      const recordUpload = (item: Release) => (status: Answer) => {
        answers.push(status);
        if (status === 200) acknowledged.set(`${item.toolId}@${item.version}`, item);
        else unacknowledged.push(item);
      };
      const status = ["deprecated", "yanked", "active"][round % 3]!;
      const work = [
        ...direct.map((item) => upload(url, item).then(recordUpload(item))),
        largeUpload(url, large!).then(recordUpload(large!)),
        ...(duplicate === undefined ? [] : [upload(url, duplicate).then((answer) => void answers.push(answer))]),
        (async () => {
          const answer = await upload(url, doomed);
          answers.push(answer);
          if (answer === 200) answers.push((await send(url, "DELETE", `/tools/${doomed.toolId}`)).status);
        })(),
        send(url, "PUT", "/tools/crash-c", JSON.stringify({ tool_search_description: `edited in round ${round}` })).then((answer) =>
          answers.push(answer.status),
        ),
        ...(changed === undefined
          ? []
          : [
              send(url, "PATCH", `/tools/${changed.toolId}/versions/${changed.version}`, statusChange(status, `round ${round}`)).then(
                (answer) => {
                  answers.push(answer.status);
                  statuses.set(`${changed.toolId}@${changed.version}`, { status, acknowledged: answer.status === 200 });
                },
              ),
            ]),
        ...(removed === undefined
          ? []
          : [
              send(url, "DELETE", `/tools/${removed.toolId}/versions/${removed.version}`).then((answer) => {
                answers.push(answer.status);
                deletes.set(`${removed.toolId}@${removed.version}`, answer.status === 200);
              }),
            ]),
        send(url, "POST", "/tokens", JSON.stringify({ name: `crash-pub-${round}`, scope: ["crash-*"], actions: ["publish"] })).then(
          (answer) => {
            answers.push(answer.status);
            tokens.set(`crash-pub-${round}`, answer.status === 201);
          },
        ),
        send(url, "PUT", "/publishers/admin/keys", JSON.stringify({ public_key: publicKeyPem() })).then((answer) =>
          answers.push(answer.status),
        ),
      ];
      await new Promise((resolve) => setTimeout(resolve, 50 + Math.random() * MAX_KILL_DELAY_MS));
      await kill(server);
      await Promise.all(work);
    }
    // A kill is no answer; whatever did answer was never a 5xx.
    expect(answers.filter((answer) => typeof answer === "number" && answer >= 500)).toEqual([]);

    server = await startServer();
    const { url } = server;
    // Retrying what was never acknowledged finishes it (200), or finds it finished (409, 404 for a delete).
    for (const item of unacknowledged) {
      const answer = await upload(url, item);
      expect([200, 409], `${item.toolId}@${item.version}`).toContain(answer);
      acknowledged.set(`${item.toolId}@${item.version}`, item);
    }
    for (const [key, done] of deletes) {
      const [toolId, version] = key.split("@");
      if (!done) expect([200, 404], key).toContain((await send(url, "DELETE", `/tools/${toolId}/versions/${version}`)).status);
      acknowledged.delete(key);
      expect((await send(url, "GET", `/tools/${toolId}/versions/${version}`)).status, key).toBe(404);
    }
    for (const [key, change] of statuses) {
      const [toolId, version] = key.split("@");
      if (!change.acknowledged) {
        expect((await send(url, "PATCH", `/tools/${toolId}/versions/${version}`, statusChange(change.status, "retried"))).status, key).toBe(
          200,
        );
      }
      expect(((await send(url, "GET", `/tools/${toolId}/versions/${version}`)).body as { status: string }).status, key).toBe(change.status);
    }
    const listedTokens = ((await send(url, "GET", "/tokens")).body as { name: string }[]).map((token) => token.name);
    for (const [name, created] of tokens) if (created) expect(listedTokens, name).toContain(name);

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
  }, 300_000);
});
