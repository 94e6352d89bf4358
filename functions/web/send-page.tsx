import type { Context, Env, Hono } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { HttpProblem } from "../http-problem.js";
import { PAGE_HEADERS } from "./page-headers.js";
import { ErrorPage } from "./views/error-page.js";
import { documentHtml } from "./views/layout.js";

export interface PageOptions {
  status?: ContentfulStatusCode;
  cacheControl?: string;
}

/** A page with the headers every page carries (CSP and the rest, see page-headers.ts). */
export function sendPage(c: Context, page: unknown, { status = 200, cacheControl }: PageOptions = {}): Response {
  return c.body(documentHtml(page), status, cacheControl === undefined ? PAGE_HEADERS : { ...PAGE_HEADERS, "Cache-Control": cacheControl });
}

/**
 * `GET path` answering a page. Client mistakes (a HttpProblem: bad query, unknown tool) answer
 * as an HTML page with the status and detail the API would give; anything else goes on to the
 * app's error handler (a JSON 500 that hides internals).
 */
export function getPage<P extends string>(app: Hono, path: P, render: (c: Context<Env, P>) => Promise<Response>): void {
  app.get(path, async (c) => {
    try {
      return await render(c as unknown as Context<Env, P>);
    } catch (error) {
      if (!(error instanceof HttpProblem)) throw error;
      return sendPage(c, <ErrorPage title={error.error} detail={error.detail} />, { status: error.status });
    }
  });
}
