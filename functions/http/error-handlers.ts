import type { Context, Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import { isStorageUnavailable } from "../storage/storage-errors.js";
import { HttpProblem } from "../http-problem.js";

/** Seconds a client should wait before retrying when storage is throttled or unreachable. */
export const STORAGE_RETRY_AFTER_SECONDS = 1;

/** Every failure leaves the app as JSON `{error, detail}`; internals never reach the client. */
export function installErrorHandlers(app: Hono): void {
  app.onError((error, c) => {
    if (error instanceof HttpProblem) {
      for (const [name, value] of Object.entries(error.headers)) c.header(name, value);
      return c.json(error.toJSON(), error.status);
    }
    if (error instanceof HTTPException) {
      return c.json({ error: error.message || "Request failed", detail: error.message || "the request was rejected" }, error.status);
    }
    if (isStorageUnavailable(error)) {
      console.error(`[registry] ${c.req.method} ${c.req.path}: storage unavailable:`, error);
      c.header("Retry-After", String(STORAGE_RETRY_AFTER_SECONDS));
      return c.json(
        {
          error: "Storage unavailable",
          detail: `The registry's storage is throttled or unreachable right now. Retry in ${STORAGE_RETRY_AFTER_SECONDS} s (Retry-After): a retried write finishes whatever this one started.`,
        },
        503,
      );
    }
    console.error(`[registry] ${c.req.method} ${c.req.path} failed:`, error);
    return c.json(
      {
        error: "Internal server error",
        detail: "The registry failed unexpectedly while handling this request; retry, and report it if it persists.",
      },
      500,
    );
  });
  app.notFound((c) => notFoundOrWrongMethod(app, c));
}

/** 405 with `Allow` when the path exists under other methods, else 404. */
function notFoundOrWrongMethod(app: Hono, c: Context): Response {
  const allowed = allowedMethods(app, c.req.path);
  if (allowed.length > 0 && !allowed.includes(c.req.method)) {
    c.header("Allow", allowed.join(", "));
    return c.json(
      {
        error: "Method not allowed",
        detail: `${c.req.method} is not supported on ${c.req.path}; use ${allowed.join(" or ")}.`,
      },
      405,
    );
  }
  return c.json({ error: "Not found", detail: `No route ${c.req.method} ${c.req.path}; see the endpoint table in docs/registry.md.` }, 404);
}

function allowedMethods(app: Hono, path: string): string[] {
  const methods = new Set<string>();
  for (const route of app.routes) {
    if (route.method === "ALL") continue;
    if (routePattern(route.path).test(path)) methods.add(route.method);
  }
  if (methods.has("GET")) methods.add("HEAD");
  return [...methods];
}

const patterns = new Map<string, RegExp>();

/** `/tools/:id/versions/:version` → a regex matching one segment per parameter. */
function routePattern(path: string): RegExp {
  let pattern = patterns.get(path);
  if (!pattern) {
    const source = path
      .split("/")
      .map((segment) => (segment.startsWith(":") ? "[^/]+" : segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
      .join("/");
    pattern = new RegExp(`^${source}/?$`);
    patterns.set(path, pattern);
  }
  return pattern;
}
