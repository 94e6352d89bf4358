import type { Context } from "hono";
import { RegistryError } from "./registry-error.js";

/** The request body parsed as JSON; 400 with the parser's reason when it is not. */
export async function readJsonBody(c: Context): Promise<unknown> {
  const text = await c.req.text();
  if (text.trim() === "") return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new RegistryError(
      400,
      "Invalid JSON body",
      `The request body is not valid JSON (${(error as Error).message}); send a JSON object with Content-Type: application/json.`,
    );
  }
}
