/**
 * A real registry for tests: the production Hono app served by Node on a free 127.0.0.1 port,
 * over fresh in-process emulators (dynalite + s3rver) in a temp folder that `close()` removes.
 *
 *   const registry = await startTestRegistry();
 *   const { status, body } = await uploadBundle(registry.url, registry.token, bundleBytes);
 *   const entry = await (await fetch(`${registry.url}/tools/text-stats`)).json();
 *   await registry.close();
 *
 * Options pass through to `startLocalRegistry` (e.g. `archiveDelivery: "redirect"`,
 * `maxBundleBytes`, `onCatalogChange`, `extraRoutes`); `dataDir` reuses a folder (restart tests)
 * and is then left in place. `local` exposes the emulator endpoints and stores.
 */
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startLocalRegistry, type LocalRegistry, type LocalRegistryOptions } from "../../functions/local/start-local-registry.js";

export interface TestRegistry {
  url: string;
  /** The write token (send as `Authorization: Bearer <token>`). */
  token: string;
  dataDir: string;
  local: LocalRegistry;
  close(): Promise<void>;
}

export type TestRegistryOptions = Partial<LocalRegistryOptions>;

export async function startTestRegistry(options: TestRegistryOptions = {}): Promise<TestRegistry> {
  const ownsDir = options.dataDir === undefined;
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), "agent-tools-registry-")));
  const token = options.token ?? randomBytes(16).toString("hex");
  try {
    const local = await startLocalRegistry({ port: 0, host: "127.0.0.1", cacheRevalidateMs: 0, ...options, dataDir, token });
    return {
      url: local.url,
      token,
      dataDir,
      local,
      async close() {
        await local.close();
        if (ownsDir) await rm(dataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    if (ownsDir) await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
}

/**
 * The environment a Lambda entry reads to reach this registry's emulators, as separate Lambda
 * instances would: the handlers keep their own caches, so they revalidate on every invocation.
 */
export function storageEnv(registry: TestRegistry): Record<string, string> {
  const { config } = registry.local;
  return {
    TABLE_NAME: config.tableName,
    BUCKET_NAME: config.bucketName,
    S3_ENDPOINT: config.s3Endpoint!,
    DYNAMODB_ENDPOINT: config.dynamodbEndpoint!,
    AWS_REGION: config.region,
    AWS_ACCESS_KEY_ID: config.credentials!.accessKeyId,
    AWS_SECRET_ACCESS_KEY: config.credentials!.secretAccessKey,
    CACHE_REVALIDATE_MS: "0",
    CURSOR_KEY: config.cursorKey!,
  };
}

export interface UploadResult {
  status: number;
  /** The parsed JSON answer (`{message, tool_id, version}` or `{error, detail}`). */
  body: Record<string, unknown>;
}

/** `POST /tools/upload` with `bytes` as multipart field `file` (filename `bundle.zip`). */
export async function uploadBundle(
  url: string,
  token: string | undefined,
  bytes: Uint8Array,
  filename = "bundle.zip",
): Promise<UploadResult> {
  const form = new FormData();
  form.set("file", new Blob([bytes as Uint8Array<ArrayBuffer>], { type: "application/zip" }), filename);
  const response = await fetch(`${url}/tools/upload`, {
    method: "POST",
    body: form,
    headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}
