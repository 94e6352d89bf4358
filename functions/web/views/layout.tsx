import type { Child } from "hono/jsx";
import { COPY_SCRIPT } from "../copy-script.js";
import { PAGE_STYLE } from "../page-style.js";

export interface LayoutProps {
  title: string;
  children?: Child;
}

/**
 * The frame of every page: a skip link to the content, the header, the page, a live status line
 * (the copy buttons speak there), and the inline style and script the CSP allows.
 */
export function Layout({ title, children }: LayoutProps) {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="light dark" />
        <title>{title}</title>
        <style dangerouslySetInnerHTML={{ __html: PAGE_STYLE }} />
      </head>
      <body>
        <a class="skip" href="#content">
          Skip to content
        </a>
        <header>
          <a class="home" href="/">
            Agent Tools
          </a>
          <span class="muted">registry catalogue</span>
        </header>
        <main id="content" tabindex={-1}>
          {children}
        </main>
        <p id="copy-status" class="visually-hidden" role="status" aria-live="polite" />
        <footer>
          Every page here has a JSON twin: <a href="/tools">GET /tools</a>, <code>GET /tools/search?q=</code>,{" "}
          <code>GET /tools/{"{id}"}</code>. The SDK and CLI this registry serves: <a href="/sdk">GET /sdk</a>.
        </footer>
        <script dangerouslySetInnerHTML={{ __html: COPY_SCRIPT }} />
      </body>
    </html>
  );
}

/** A page as the HTML document to send. */
export function documentHtml(page: unknown): string {
  return `<!DOCTYPE html>${String(page)}`;
}
