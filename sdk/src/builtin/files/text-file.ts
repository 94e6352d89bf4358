import { extname } from "node:path";

/** Files above this size are not read whole (the model could not use them anyway). */
export const MAX_TEXT_FILE_BYTES = 25 * 1024 * 1024;

const IMAGE_MEDIA_TYPES: Record<string, string> = {
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
};

export function imageMediaType(path: string): string | undefined {
  return IMAGE_MEDIA_TYPES[extname(path).toLowerCase()];
}

export type DecodedText = { ok: true; text: string } | { ok: false; problem: "binary" | "encoding" };

const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

/** UTF-8 text as stored; NUL bytes mean binary, invalid sequences mean another encoding. */
export function decodeText(data: Uint8Array): DecodedText {
  if (data.subarray(0, 8192).includes(0)) return { ok: false, problem: "binary" };
  try {
    return { ok: true, text: decoder.decode(data) };
  } catch {
    return { ok: false, problem: "encoding" };
  }
}
