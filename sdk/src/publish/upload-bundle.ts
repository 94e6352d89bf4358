import { asSentence } from "../errors.js";
import { registryFetch } from "../registry-client/index.js";
import { BundleTransferError } from "./publish-errors.js";
import { putWithProgress } from "./put-with-progress.js";
import { registryRequest, type RegistryWriteOptions } from "./registry-request.js";

/**
 * Bundles up to this size go through `POST /tools/upload` (one request). API Gateway accepts 10 MB,
 * but Lambda's 6 MB synchronous payload, after base64 and multipart framing, leaves about 4.5 MB of
 * bundle; larger ones take the presigned path (`POST /tools/uploads`, PUT to storage, `…/complete`).
 */
export const DIRECT_UPLOAD_MAX_BYTES = 4 * 1024 * 1024;

export type UploadPath = "upload" | "presigned";

export interface UploadBundleOptions extends RegistryWriteOptions {
  /** `auto` (default) picks by size; force a path with `upload` or `presigned`. */
  via?: UploadPath | "auto";
  /** File name sent with the multipart upload. */
  fileName?: string;
  /** Bytes of the bundle sent so far (measured for the presigned path, which large bundles take; the direct path reports once, when sent). */
  onProgress?: (sent: number, total: number) => void;
}

/** The registry's 200 body for an upload, plus the path that was taken. */
export interface PublishedTool {
  message: string;
  tool_id: string;
  version: string;
  via: UploadPath;
  /** What the registry published but flags as a probable mistake (e.g. no version). */
  warnings?: string[];
}

/** What `POST /tools/uploads` answers: where to PUT the bundle and how to finish. */
export interface UploadTicket {
  uploadId: string;
  uploadUrl: string;
  expiresAt: string;
  maxBytes: number;
  completeUrl: string;
}

export function chooseUploadPath(size: number, via: UploadBundleOptions["via"] = "auto"): UploadPath {
  if (via === "upload" || via === "presigned") return via;
  return size <= DIRECT_UPLOAD_MAX_BYTES ? "upload" : "presigned";
}

/** Publishes a bundle zip (`spec.json` + `tool.zip` + `tool.md`); both paths run the same validation on the registry. */
export async function uploadBundle(bundle: Uint8Array, options: UploadBundleOptions): Promise<PublishedTool> {
  const via = chooseUploadPath(bundle.byteLength, options.via);
  const published = via === "upload" ? await uploadDirect(bundle, options) : await uploadPresigned(bundle, options);
  if (via === "upload") options.onProgress?.(bundle.byteLength, bundle.byteLength);
  return { ...published, via };
}

async function uploadDirect(bundle: Uint8Array, options: UploadBundleOptions): Promise<Omit<PublishedTool, "via">> {
  const form = new FormData();
  form.set("file", new Blob([bundle], { type: "application/zip" }), options.fileName ?? "bundle.zip");
  return registryRequest(options, "POST", "/tools/upload", form);
}

async function uploadPresigned(bundle: Uint8Array, options: UploadBundleOptions): Promise<Omit<PublishedTool, "via">> {
  const ticket = await registryRequest<UploadTicket>(options, "POST", "/tools/uploads", JSON.stringify({ size: bundle.byteLength }), {
    "content-type": "application/json",
  });
  let put: Response;
  try {
    const headers = { "content-type": "application/zip" };
    put =
      options.onProgress !== undefined && options.fetch === undefined
        ? await putWithProgress(ticket.uploadUrl, bundle, headers, options.onProgress)
        : await (options.fetch ?? registryFetch)(ticket.uploadUrl, { method: "PUT", body: bundle, headers });
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code ?? String(error);
    throw new BundleTransferError(`Could not reach storage at ${new URL(ticket.uploadUrl).origin} to upload the bundle (${cause}).`, { cause: error });
  }
  if (!put.ok) {
    const body = await put.text();
    const reason = body.match(/<Message>([^<]*)<\/Message>/)?.[1] ?? body.slice(0, 300);
    throw new BundleTransferError(
      `Storage refused the bundle upload (HTTP ${put.status}): ${asSentence(reason)} The upload URL is valid until ${ticket.expiresAt}; publish again to get a fresh one.`,
      { status: put.status },
    );
  }
  return registryRequest(options, "POST", ticket.completeUrl);
}
