import { createHash } from "node:crypto";
import { COPY_SCRIPT } from "./copy-script.js";
import { PAGE_STYLE } from "./page-style.js";

function cspHash(text: string): string {
  return `'sha256-${createHash("sha256").update(text).digest("base64")}'`;
}

/**
 * Nothing runs or styles a page but its own inline script and stylesheet (allowed by hash, so an
 * injected `<script>`, `<style>`, `style=` or event handler is refused even if one slipped past
 * rendering); images only over https (tool.md's); no plugins, frames, or form posts elsewhere;
 * no string-to-code DOM sinks (Trusted Types with no policy).
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  `script-src ${cspHash(COPY_SCRIPT)}`,
  `style-src ${cspHash(PAGE_STYLE)}`,
  "img-src https:",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
  "require-trusted-types-for 'script'",
  "trusted-types 'none'",
].join("; ");

/** Headers on every page, whatever its status. */
export const PAGE_HEADERS: Readonly<Record<string, string>> = {
  "Content-Type": "text/html; charset=utf-8",
  "Content-Security-Policy": CONTENT_SECURITY_POLICY,
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "no-referrer",
  "X-Frame-Options": "DENY",
  "Cross-Origin-Opener-Policy": "same-origin",
};
