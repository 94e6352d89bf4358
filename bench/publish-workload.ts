/**
 * What the publishing benchmarks send, the same for the registry and its baselines: a new tool
 * each time (the text-stats fixture with code bytes of its own, so every upload stores a new
 * archive); for the bare pair, that tool.zip as an S3 PutObject and an entry-sized DynamoDB
 * PutItem through the SDK (the floor: what an upload must store, in two calls); for Verdaccio,
 * `npm publish` of a new package whose tarball is the same bundle and whose readme is tool.md.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { PutObjectCommand } from "@aws-sdk/client-s3";
import { PutCommand } from "@aws-sdk/lib-dynamodb";
import type { RegistryConfig } from "../functions/config.js";
import { createDynamoDocumentClient, createS3Client } from "../functions/storage/aws-clients.js";
import { buildBundle, FIXTURE_TOOLS_DIR, readFixtureSpec, zipFiles } from "../test/support/bundles.js";
import { JSON_HEADERS, publishBody } from "./verdaccio.js";

const spec = readFixtureSpec("text-stats");
const functionPy = readFileSync(join(FIXTURE_TOOLS_DIR, "text-stats/code/function.py"));
export const TOOL_MD = readFileSync(join(FIXTURE_TOOLS_DIR, "text-stats/tool.md"), "utf8");

export interface NewTool {
  toolId: string;
  toolZip: Uint8Array;
  bundle: Uint8Array;
}

/** `count` new tools `<prefix>-<i>`, each with code bytes of its own. */
export function newTools(count: number, prefix: string): NewTool[] {
  return Array.from({ length: count }, (_, i) => {
    const toolId = `${prefix}-${i}`;
    const toolZip = zipFiles({ "code/function.py": functionPy, "code/build.txt": toolId });
    return { toolId, toolZip, bundle: buildBundle({ spec: { ...spec, tool_id: toolId }, toolZip, toolMd: TOOL_MD }) };
  });
}

const BOUNDARY = "bench-boundary-7f3a";
export const MULTIPART_TYPE = `multipart/form-data; boundary=${BOUNDARY}`;

/** The bundle as `POST /tools/upload` takes it: multipart field `file`. */
export function multipart(bundle: Uint8Array): Buffer {
  const head =
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; ` + `filename="bundle.zip"\r\nContent-Type: application/zip\r\n\r\n`;
  return Buffer.concat([Buffer.from(head), bundle, Buffer.from(`\r\n--${BOUNDARY}--\r\n`)]);
}

/** One upload of `tool` to the registry at `url`; throws unless it is 200. */
export async function uploadTool(url: string, token: string, tool: NewTool): Promise<void> {
  const response = await fetch(`${url}/tools/upload`, {
    method: "POST",
    body: multipart(tool.bundle),
    headers: { authorization: `Bearer ${token}`, "content-type": MULTIPART_TYPE },
  });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`upload failed: ${response.status} ${text}`);
}

/** One `npm publish` of `tool` as a package to Verdaccio at `url`; throws unless it is 201. */
export async function publishToVerdaccio(url: string, tool: NewTool): Promise<void> {
  const response = await fetch(`${url}/${tool.toolId}`, {
    method: "PUT",
    body: publishBody(tool.toolId, tool.bundle, TOOL_MD),
    headers: JSON_HEADERS,
  });
  const text = await response.text();
  if (response.status !== 201) throw new Error(`verdaccio publish failed: ${response.status} ${text}`);
}

/** The bare pair on the registry's emulators, through the SDK from this process. */
export function barePair(config: RegistryConfig): { write(tool: NewTool): Promise<void>; close(): void } {
  const db = createDynamoDocumentClient(config);
  const s3 = createS3Client(config);
  const entry = { ...spec, tool_man_page_doc: TOOL_MD };
  return {
    async write(tool) {
      await s3.send(
        new PutObjectCommand({
          Bucket: config.bucketName,
          Key: `bench/${tool.toolId}`,
          Body: tool.toolZip,
          ContentLength: tool.toolZip.byteLength,
        }),
      );
      await db.send(new PutCommand({ TableName: config.tableName, Item: { tool_id: tool.toolId, version: "1.0.0", entry } }));
    },
    close() {
      db.destroy();
      s3.destroy();
    },
  };
}
