import { HttpProblem } from "../http-problem.js";
import { DIRECT_UPLOAD_MAX_BODY_BYTES, directUploadTooLarge } from "./direct-upload-limit.js";
import { readLimitedBody } from "./read-limited-body.js";

export interface BundleUpload {
  bytes: Uint8Array;
  filename: string;
}

const HOW_TO = 'Send the bundle zip as multipart/form-data field "file", e.g. curl -F "file=@my-tool-bundle.zip".';

/**
 * The bundle from a `multipart/form-data` upload (field `file`), with the Python registry's error strings (docs/design/compatibility.md).
 * The body may hold `maxBytes`, and never more than fits a Lambda event (`direct-upload-limit.ts`).
 */
export async function readBundleUpload(request: Request, maxBytes: number): Promise<BundleUpload> {
  const contentType = request.headers.get("content-type") ?? "";
  if (!/^multipart\/form-data\s*;/i.test(contentType)) {
    throw new HttpProblem(
      415,
      "Missing file part",
      `The request is not multipart/form-data (Content-Type: ${contentType || "none"}). ${HOW_TO}`,
    );
  }
  const body =
    maxBytes < DIRECT_UPLOAD_MAX_BODY_BYTES
      ? await readLimitedBody(request, maxBytes)
      : await readLimitedBody(request, DIRECT_UPLOAD_MAX_BODY_BYTES, directUploadTooLarge);
  let form: FormData;
  try {
    form = await new Response(body, { headers: { "content-type": contentType } }).formData();
  } catch (error) {
    throw new HttpProblem(400, "Missing file part", `The multipart body could not be parsed (${(error as Error).message}). ${HOW_TO}`);
  }
  const file = form.get("file");
  if (file === null) {
    const fields = [...new Set(form.keys())];
    throw new HttpProblem(
      400,
      "Missing file part",
      `The form has no "file" field${fields.length > 0 ? ` (it has: ${fields.join(", ")})` : ""}. ${HOW_TO}`,
    );
  }
  if (typeof file === "string") {
    // A file input with nothing selected sends `filename=""`, which FormData turns into text.
    if (/content-disposition:[^\r\n]*name="file"[^\r\n]*filename=""/i.test(Buffer.from(body).toString("latin1"))) {
      throw new HttpProblem(400, "No selected file", `The "file" part has an empty filename, so no file was selected. ${HOW_TO}`);
    }
    throw new HttpProblem(400, "Missing file part", `The "file" field is plain text, not a file upload. ${HOW_TO}`);
  }
  if (file.name === "") {
    throw new HttpProblem(400, "No selected file", `The "file" part has an empty filename, so no file was selected. ${HOW_TO}`);
  }
  if (file.size === 0) {
    throw new HttpProblem(
      400,
      "Failed to process tool package",
      `The uploaded file "${file.name}" is empty (0 bytes). Build the bundle with: zip my-tool-bundle.zip spec.json tool.zip tool.md`,
    );
  }
  return { bytes: new Uint8Array(await file.arrayBuffer()), filename: file.name };
}
