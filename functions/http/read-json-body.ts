import type { Context } from "hono";
import { HttpProblem } from "../http-problem.js";
import { readLimitedBody } from "./read-limited-body.js";

/**
 * Largest JSON request body (`PUT /tools/{id}`, `POST /tools/uploads`): a whole entry as GET shows
 * it (at most 300 KB stored) fits with room to spare, and nothing bigger is ever read into memory.
 */
export const MAX_JSON_BODY_BYTES = 512 * 1024;

/** The request body parsed as JSON; 413 past `maxBytes`, 400 with the parser's reason when it is not JSON. */
export async function readJsonBody(c: Context, maxBytes = MAX_JSON_BODY_BYTES): Promise<unknown> {
  const bytes = await readLimitedBody(c.req.raw, maxBytes, bodyTooLarge);
  const text = new TextDecoder().decode(bytes);
  if (text.trim() === "") return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new HttpProblem(
      400,
      "Invalid JSON body",
      `The request body is not valid JSON (${(error as Error).message}); send a JSON object with Content-Type: application/json.`,
    );
  }
}

function bodyTooLarge(size: number, maxBytes: number): HttpProblem {
  return new HttpProblem(
    413,
    "Request body too large",
    `The JSON body is ${size > maxBytes ? `over ${maxBytes}` : size} bytes; this route accepts at most ${maxBytes} bytes. Send only the fields to change.`,
  );
}
