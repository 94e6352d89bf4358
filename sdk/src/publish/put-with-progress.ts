import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";

const CHUNK_BYTES = 256 * 1024;

/**
 * PUTs `body` to `url` in chunks over node:http(s), reporting the bytes handed to the socket
 * (fetch cannot report upload progress, and cannot stream a body with a fixed Content-Length,
 * which a presigned S3 URL signs). Answers as fetch would; a failed connection is a TypeError
 * "fetch failed" with the socket error as its cause, like fetch's.
 */
export function putWithProgress(
  url: string,
  body: Uint8Array,
  headers: Record<string, string>,
  onProgress: (sent: number, total: number) => void,
): Promise<Response> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const send = target.protocol === "https:" ? httpsRequest : httpRequest;
    const outgoing = send(target, { method: "PUT", headers: { ...headers, "content-length": String(body.byteLength) } }, (incoming) => {
      const chunks: Buffer[] = [];
      incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
      incoming.on("error", (error) => reject(new TypeError("fetch failed", { cause: error })));
      incoming.on("end", () => {
        const status = incoming.statusCode ?? 0;
        resolve(new Response(status === 204 || status === 304 ? null : Buffer.concat(chunks), { status }));
      });
    });
    outgoing.on("error", (error) => reject(new TypeError("fetch failed", { cause: error })));
    let sent = 0;
    const writeMore = () => {
      while (sent < body.byteLength) {
        const chunk = body.subarray(sent, sent + CHUNK_BYTES);
        sent += chunk.byteLength;
        const more = outgoing.write(chunk);
        onProgress(sent, body.byteLength);
        if (!more) {
          outgoing.once("drain", writeMore);
          return;
        }
      }
      outgoing.end();
    };
    writeMore();
  });
}
