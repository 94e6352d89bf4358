import { createHash, randomBytes } from "node:crypto";
import { strToU8, zipSync } from "fflate";
import { readAuditLog } from "../../publish/audit-log.js";
import { deleteTool } from "../../publish/delete-tool.js";
import { createPublisherToken, listPublisherTokens, revokePublisherToken } from "../../publish/publisher-tokens.js";
import { registryRequest } from "../../publish/registry-request.js";
import { uploadBundle } from "../../publish/upload-bundle.js";
import { RegistryClient } from "../../registry-client/registry-client.js";
import { registryFetch } from "../../registry-client/registry-fetch.js";

/** One check of a smoke run, in the order they ran. */
export interface SmokeStep {
  name: string;
  ok: boolean;
  /** What was checked and seen, or what went wrong and where to look. */
  detail: string;
  ms: number;
}

export interface SmokeOptions {
  registryUrl: string;
  /** The admin token: it mints (and revokes) the publisher token the upload uses, and reads the admin routes. */
  adminToken: string;
  /**
   * How long reads may lag the upload before a step fails: search, listings and the catalogue of a
   * deployed registry follow writes within seconds, and the edge caches public reads briefly.
   */
  waitMs?: number;
  onStep?: (step: SmokeStep) => void;
}

const DEFAULT_WAIT_MS = 30_000;
const RETRY_MS = 1_000;

/**
 * A deployment checked end to end as a user meets it (docs/deployment.md#smoke-test): health, an
 * upload with a fresh publisher token, the entry and its archive, search, the listing, the web
 * catalogue and the admin reads (tokens, audit) through the same URL clients use, CloudFront
 * included. It publishes one throwaway tool, `smoke-<random>`, and deletes it and revokes the
 * token afterwards, whatever failed. Steps after a failed one that need its result are skipped.
 */
export async function smokeRegistry(options: SmokeOptions): Promise<SmokeStep[]> {
  const steps: SmokeStep[] = [];
  const waitMs = options.waitMs ?? DEFAULT_WAIT_MS;
  const run = async (name: string, check: () => Promise<string>): Promise<boolean> => {
    const started = performance.now();
    let step: SmokeStep;
    try {
      step = { name, ok: true, detail: await check(), ms: 0 };
    } catch (error) {
      step = { name, ok: false, detail: error instanceof Error ? error.message : String(error), ms: 0 };
    }
    step.ms = Math.round(performance.now() - started);
    steps.push(step);
    options.onStep?.(step);
    return step.ok;
  };
  const registryUrl = options.registryUrl;
  const admin = { registryUrl, token: options.adminToken };
  const client = new RegistryClient(registryUrl);
  const suffix = randomBytes(4).toString("hex");
  const toolId = `smoke-${suffix}`;
  // A word no other tool has: search and the tag filters find this tool and nothing cached before it existed.
  const marker = `smokemarker${suffix}`;
  const bundle = smokeBundle(toolId, marker);
  let publisherToken: string | undefined;
  let published = false;

  if (!(await run("health", async () => expectOk(await registryRequest<{ status?: string }>({ registryUrl }, "GET", "/health")))))
    return steps;
  const minted = await run("publisher token", async () => {
    const token = await createPublisherToken({ name: toolId, scope: [toolId], actions: ["publish", "delete"], expiresInHours: 1 }, admin);
    publisherToken = token.token;
    return `minted ${token.name} (publish, delete on ${toolId}; expires ${token.expires_at})`;
  });
  try {
    if (minted) {
      published = await run("upload", async () => {
        const answer = await uploadBundle(bundle.bytes, { registryUrl, token: publisherToken! });
        return `published ${answer.tool_id}@${answer.version} via ${answer.via}`;
      });
    }
    if (published) {
      await run("fetch", async () => {
        const entry = await client.getTool(toolId);
        const archive = await client.downloadArchive(entry);
        const sha256 = createHash("sha256").update(archive).digest("hex");
        if (sha256 !== entry.tool_archive_sha256)
          throw new Error(`the archive's sha256 is ${sha256}, the entry says ${String(entry.tool_archive_sha256)}`);
        return `entry ${entry.tool_id}@${entry.version}, archive of ${archive.byteLength} bytes matching its sha256`;
      });
      await run("search", () =>
        eventually(waitMs, async () => {
          const hits = await client.searchTools({ q: marker, limit: 5 });
          if (!hits.some((hit) => hit.tool_id === toolId)) throw new Error(`GET /tools/search?q=${marker} does not find ${toolId} yet`);
          return `GET /tools/search?q=${marker} finds ${toolId}`;
        }),
      );
      await run("listing", () =>
        eventually(waitMs, async () => {
          const { tools } = await client.listTools({ tag: marker });
          if (!tools.some((tool) => tool.tool_id === toolId)) throw new Error(`GET /tools?tag=${marker} does not list ${toolId} yet`);
          return `GET /tools?tag=${marker} lists ${toolId}`;
        }),
      );
      await run("catalogue page", () =>
        eventually(waitMs, async () => {
          const html = await pageText(`${registryUrl.replace(/\/+$/, "")}/?tag=${marker}`);
          if (!html.includes(toolId)) throw new Error(`the web catalogue (/?tag=${marker}) does not show ${toolId} yet`);
          return `/?tag=${marker} shows ${toolId}`;
        }),
      );
    }
    if (minted) {
      await run("admin reads", async () => {
        const tokens = await listPublisherTokens(admin);
        if (!tokens.some((token) => token.name === toolId)) throw new Error(`GET /tokens does not list the publisher ${toolId}`);
        const { events } = await readAuditLog(admin, { limit: 50 });
        const minting = events.find((event) => event.publisher === toolId || event.tool_id === toolId);
        if (minting === undefined) throw new Error(`GET /audit has no event about ${toolId} among its newest 50`);
        return `GET /tokens lists ${toolId}; GET /audit records ${minting.action} by ${minting.token} from ${minting.client}`;
      });
    }
  } finally {
    if (published)
      await run("delete", async () => {
        await deleteTool(toolId, { registryUrl, token: publisherToken! });
        return `deleted ${toolId}`;
      });
    if (minted) await run("revoke", async () => `revoked ${(await revokePublisherToken(toolId, admin)).name}`);
  }
  return steps;
}

function expectOk(answer: { status?: string }): string {
  if (answer.status !== "ok") throw new Error(`GET /health answered ${JSON.stringify(answer)}, expected {"status":"ok"}`);
  return "GET /health is ok";
}

/** `check` until it passes or `waitMs` has gone by; then its last error. */
async function eventually(waitMs: number, check: () => Promise<string>): Promise<string> {
  const deadline = performance.now() + waitMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (performance.now() + RETRY_MS > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
    }
  }
}

async function pageText(url: string): Promise<string> {
  const response = await registryFetch(url, { headers: { accept: "text/html" }, signal: AbortSignal.timeout(30_000) });
  const text = await response.text();
  if (!response.ok) throw new Error(`GET ${url} answered ${response.status}: ${text.slice(0, 200)}`);
  return text;
}

/** A Python tool that does nothing useful, tagged and described with `marker` so that only it matches. */
function smokeBundle(toolId: string, marker: string): { bytes: Uint8Array } {
  const spec = {
    tool_id: toolId,
    tool_runtime_type: "python",
    tool_type: "smoke-test",
    tool_search_description: `Smoke test of a registry deployment (${marker}); deleted right after the check`,
    tool_tags: [marker],
    tool_metadata: { version: "0.0.1" },
    tool_api_spec: { entrypoints: { execute: { input: { type: "object", properties: {} } } } },
  };
  const code = zipSync({
    "code/function.py": strToU8(
      "class AgentSpaceV1Tool:\n    def __init__(self, tool_id, tool_data):\n        " +
        'pass\n\n    def execute(self, input_data):\n        return {"ok": True}\n',
    ),
  });
  const bytes = zipSync({
    "spec.json": strToU8(JSON.stringify(spec)),
    "tool.zip": [code, { level: 0 }],
    "tool.md": strToU8(`# ${toolId}\n\nA registry smoke test's throwaway tool (${marker}).\n`),
  });
  return { bytes };
}
