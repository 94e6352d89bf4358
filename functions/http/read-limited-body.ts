import { HttpProblem } from "../http-problem.js";

/**
 * The raw request body, refused with 413 as soon as it exceeds `maxBytes`: first by the declared
 * Content-Length (nothing is read), then by counting while reading (chunked or lying clients).
 */
export async function readLimitedBody(
  request: Request,
  maxBytes: number,
  refuse: (size: number, maxBytes: number) => HttpProblem = tooLarge,
): Promise<Uint8Array> {
  const declared = Number(request.headers.get("content-length") ?? Number.NaN);
  if (Number.isFinite(declared) && declared > maxBytes) throw refuse(declared, maxBytes);
  if (!request.body) return new Uint8Array();

  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = request.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw refuse(total, maxBytes);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, total);
}

function tooLarge(size: number, maxBytes: number): HttpProblem {
  return new HttpProblem(
    413,
    "Bundle too large",
    `The upload is ${size > maxBytes ? `over ${maxBytes}` : size} bytes; the limit is ${maxBytes} bytes (MAX_BUNDLE_BYTES). ` +
      "Shrink tool.zip (leave out build outputs and caches) or use the large-upload flow (POST /tools/uploads).",
  );
}
