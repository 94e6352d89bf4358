import type { Context, Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import { isStorageFull, isStorageUnavailable } from "../storage/storage-errors.js";
import { HttpProblem } from "../http-problem.js";
import { storageFull, storageUnavailable } from "./storage-answers.js";

/** Every failure leaves the app as JSON `{error, detail}`; internals never reach the client. */
export function installErrorHandlers(app: Hono): void {
  const answer = (c: Context, problem: HttpProblem) => {
    for (const [name, value] of Object.entries(problem.headers)) c.header(name, value);
    return c.json(problem.toJSON(), problem.status);
  };
  app.onError((error, c) => {
    if (error instanceof HttpProblem) return answer(c, error);
    if (error instanceof HTTPException) {
      return c.json({ error: error.message || "Request failed", detail: error.message || "the request was rejected" }, error.status);
    }
    // Before "unavailable": a full disk is no outage to wait out, and its answer says what to free.
    if (isStorageFull(error)) {
      console.error(`[registry] ${c.req.method} ${c.req.path}: storage full:`, (error as Error).message);
      return answer(c, storageFull("The disk that holds the registry's data is full."));
    }
    if (isStorageUnavailable(error)) {
      console.error(`[registry] ${c.req.method} ${c.req.path}: storage unavailable:`, error);
      return answer(c, storageUnavailable());
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
