import type { Context } from "hono";
import { MAX_FIELD_DEPTH, storedShape } from "../entry/entry-limits.js";
import { HttpProblem } from "../http-problem.js";
import { readLimitedBody } from "./read-limited-body.js";

/**
 * Largest JSON request body (`PUT /tools/{id}`, `POST /tools/uploads`): a whole entry as GET shows
 * it (at most 300 KB stored) fits with room to spare, and nothing bigger is ever read into memory.
 */
export const MAX_JSON_BODY_BYTES = 512 * 1024;

/**
 * Deepest nesting of a JSON body: a stored field nests at most MAX_FIELD_DEPTH levels inside the
 * body object (1 more), and a filter condition wraps a value in `{"$in": [...]}` (2 more). No
 * route takes anything deeper, so nothing deeper ever reaches code that walks values recursively
 * (`JSON.stringify`, deep comparison), which a 10 KB body nested 5,000 levels would overflow.
 */
export const MAX_JSON_BODY_DEPTH = MAX_FIELD_DEPTH + 3;

/**
 * The request body parsed as JSON; 413 past `maxBytes`, 400 with the parser's reason when it is
 * not JSON, 422 when it nests deeper than MAX_JSON_BODY_DEPTH. Size is bounded before parsing and
 * depth in one iterative pass right after it, before the value is used anywhere.
 */
export async function readJsonBody(c: Context, maxBytes = MAX_JSON_BODY_BYTES): Promise<unknown> {
  const bytes = await readLimitedBody(c.req.raw, maxBytes, bodyTooLarge);
  const text = new TextDecoder().decode(bytes);
  if (text.trim() === "") return undefined;
  let body: unknown;
  try {
    body = JSON.parse(text) as unknown;
  } catch (error) {
    throw new HttpProblem(
      400,
      "Invalid JSON body",
      `The request body is not valid JSON (${(error as Error).message}); send a JSON object with Content-Type: application/json.`,
    );
  }
  const tooDeep = deepMember(body);
  if (tooDeep !== undefined) {
    throw new HttpProblem(
      422,
      "Request body too deep",
      `The JSON body nests more than ${MAX_JSON_BODY_DEPTH} levels deep at ${JSON.stringify(tooDeep.slice(0, 80))}; ` +
        `no route takes values nested that deep (a stored field nests at most ${MAX_FIELD_DEPTH} levels). Flatten it.`,
    );
  }
  return body;
}

/** The first member of `body` nested past MAX_JSON_BODY_DEPTH (the body counts as one level), walking without recursion. */
function deepMember(body: unknown): string | undefined {
  if (body === null || typeof body !== "object") return undefined;
  const memberDepth = MAX_JSON_BODY_DEPTH - 1;
  for (const [member, value] of Object.entries(body)) {
    if (storedShape(value, memberDepth).depth > memberDepth) return member;
  }
  return undefined;
}

function bodyTooLarge(size: number, maxBytes: number): HttpProblem {
  return new HttpProblem(
    413,
    "Request body too large",
    `The JSON body is ${size > maxBytes ? `over ${maxBytes}` : size} bytes; this ` +
      `route accepts at most ${maxBytes} bytes. Send only the fields to change.`,
  );
}
