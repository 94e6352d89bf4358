import { Gunzip, Inflate, inflateSync } from "fflate";
import { ArchiveError } from "./archive-error.js";

/** Input is fed in slices this small so one slice can inflate to at most ~16 MiB (deflate tops out near 1032:1). */
const INPUT_SLICE_BYTES = 16 * 1024;

/** Largest compressed input inflated in one shot: even a lying entry then costs little CPU (~66 MB of work at most). */
export const ONE_SHOT_MAX_INPUT_BYTES = 64 * 1024;

/**
 * Raw deflate data of a declared inflated size, inflated in one shot into a buffer one byte
 * larger than declared; `undefined` when the data holds more than declared. Avoids the streaming
 * path's per-entry buffers, which dominate for archives of many small files.
 */
export function inflateKnownSize(data: Uint8Array, declaredBytes: number): Uint8Array | undefined {
  try {
    const out = inflateSync(data, { out: new Uint8Array(declaredBytes + 1) });
    return out.length > declaredBytes ? undefined : out;
  } catch (cause) {
    // fflate writes past a fixed buffer's end with a RangeError (stored blocks): more data than declared.
    if (cause instanceof RangeError) return undefined;
    throw damaged(cause);
  }
}

/**
 * Inflates raw deflate or gzip data, calling `checkProduced` with the running output size after
 * every slice so a bomb is stopped long before it fills memory. `checkProduced` throws to abort.
 */
export function inflateBounded(data: Uint8Array, encoding: "deflate" | "gzip", checkProduced: (producedBytes: number) => void): Uint8Array {
  const chunks: Uint8Array[] = [];
  let produced = 0;
  const onData = (chunk: Uint8Array) => {
    chunks.push(chunk);
    produced += chunk.length;
  };
  const stream = encoding === "gzip" ? new Gunzip(onData) : new Inflate(onData);
  for (let offset = 0; offset < data.length || offset === 0; offset += INPUT_SLICE_BYTES) {
    const end = Math.min(offset + INPUT_SLICE_BYTES, data.length);
    try {
      stream.push(data.subarray(offset, end), end >= data.length);
    } catch (cause) {
      throw damaged(cause);
    }
    checkProduced(produced);
    if (end >= data.length) break;
  }
  return concat(chunks, produced);
}

function concat(chunks: Uint8Array[], total: number): Uint8Array {
  if (chunks.length === 1) return chunks[0]!;
  const out = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.length;
  }
  return out;
}

function damaged(cause: unknown): ArchiveError {
  return new ArchiveError(
    "ARCHIVE_CORRUPT",
    `The compressed data is damaged (${cause instanceof Error ? cause.message : String(cause)}). ` +
      `Re-create the archive, e.g. \`zip -r tool.zip code\` or \`tar czf tool.zip code\`.`,
    { cause },
  );
}
