import { asSentence } from "../errors.js";
import { RegistryError } from "../registry-client/registry-errors.js";
import { registryFetch } from "../registry-client/registry-fetch.js";
import { BundleTransferError } from "./publish-errors.js";
import { putWithProgress } from "./put-with-progress.js";
import { registryRequest, type RegistryWriteOptions } from "./registry-request.js";

/**
 * Bundles up to this size go through `POST /tools/upload` (one request); larger ones take the
 * presigned path (`POST /tools/uploads`, PUT to storage, `…/complete`). The registry refuses
 * direct request bodies over 4,694,016 bytes, the most whose base64 fits a 6 MiB Lambda event
 * beside the largest headers API Gateway accepts; 1 KiB of that is left for the multipart framing.
 */
export const DIRECT_UPLOAD_MAX_BYTES = 4_694_016 - 1024;

/** What to do with a bundle too large for one request; the registry's own 413 says the same. */
export const LARGE_UPLOAD_HINT =
  "Use the large-upload flow: POST /tools/uploads, PUT the bundle to the returned uploadUrl, then POST its completeUrl " +
  "(`agent-tools publish` and the SDK's uploadBundle switch to it on their own for larger bundles).";

export type UploadPath = "upload" | "presigned";

export interface UploadBundleOptions extends RegistryWriteOptions {
  /** `auto` (default) picks by size; force a path with `upload` or `presigned`. */
  via?: UploadPath | "auto";
  /** File name sent with the multipart upload. */
  fileName?: string;
  /**
   * Bytes of the bundle sent so far (measured for the presigned path, which large bundles take; the direct
   * path reports once, when sent).
   */
  onProgress?: (sent: number, total: number) => void;
  /**
   * The publisher's signature (`signBundle(...).header`), sent as `X-Agent-Tools-Signature` with
   * the upload or the large-upload completion; the registry verifies it before storing anything.
   */
  signature?: string;
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
  if (via === "presigned") return { ...(await uploadPresigned(bundle, options)), via };
  try {
    const published = await uploadDirect(bundle, options);
    options.onProgress?.(bundle.byteLength, bundle.byteLength);
    return { ...published, via };
  } catch (error) {
    // A gateway or proxy in front with a smaller body limit than ours: the presigned path has none.
    if (error instanceof RegistryError && error.status === 413 && (options.via ?? "auto") === "auto") {
      return { ...(await uploadPresigned(bundle, options)), via: "presigned" };
    }
    throw error;
  }
}

async function uploadDirect(bundle: Uint8Array, options: UploadBundleOptions): Promise<Omit<PublishedTool, "via">> {
  const form = new FormData();
  form.set("file", new Blob([bundle], { type: "application/zip" }), options.fileName ?? "bundle.zip");
  try {
    return await registryRequest(options, "POST", "/tools/upload", form, signatureHeader(options));
  } catch (error) {
    throw error instanceof RegistryError && error.status === 413 ? asBundleTooLarge(error) : error;
  }
}

/**
 * The registry's 413 as it is; the 413 of a gateway in front (`{"message":"Request Entity Too
 * Large"}`, which never reached the registry) as the registry's error with the same hint.
 */
function asBundleTooLarge(error: RegistryError): RegistryError {
  if (error.error === "Bundle too large") return error;
  return new RegistryError(
    413,
    "Bundle too large",
    `${error.detail || error.error}: the request was refused before it reached the registry. ${LARGE_UPLOAD_HINT}`,
    { code: "REGISTRY_TOO_LARGE" },
  );
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
    throw new BundleTransferError(`Could not reach storage at ${new URL(ticket.uploadUrl).origin} to upload the bundle (${cause}).`, {
      cause: error,
    });
  }
  if (!put.ok) {
    const body = await put.text();
    const reason = body.match(/<Message>([^<]*)<\/Message>/)?.[1] ?? body.slice(0, 300);
    throw new BundleTransferError(
      `Storage refused the bundle upload (HTTP ${put.status}): ${asSentence(reason)} The ` +
        `upload URL is valid until ${ticket.expiresAt}; publish again to get a fresh one.`,
      { status: put.status },
    );
  }
  return registryRequest(options, "POST", ticket.completeUrl, undefined, signatureHeader(options));
}

function signatureHeader(options: UploadBundleOptions): Record<string, string> {
  return options.signature === undefined ? {} : { "x-agent-tools-signature": options.signature };
}
