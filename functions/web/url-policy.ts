/**
 * Which URLs from a tool's `tool.md` may become a link or an image on its page. Anyone can publish
 * a tool, so its documentation is hostile input: only these schemes survive, everything else is
 * rendered as plain text (see docs/web.md, "Rendering tool.md safely").
 */
export const URL_POLICY = {
  /** Schemes a link may use; scheme-less URLs (`#usage`, `docs/x.md`, `//host/x`) stay relative links. */
  linkSchemes: ["http", "https", "mailto"],
  /**
   * Schemes an image may use, and only absolute URLs: a relative image would point into the
   * registry, which serves no tool assets. Matches the pages' `img-src https:` policy.
   */
  imageSchemes: ["https"],
} as const;

/** `javascript:`, ` JaVaScRiPt:`, `data:` …: the scheme a browser would read, lower-cased. */
function schemeOf(url: string): string | undefined {
  // Browsers ignore leading C0 controls and spaces and drop tabs and newlines anywhere in a URL.
  const cleaned = url.replace(/^[\u0000-\u0020]+/, "").replace(/[\t\n\r]/g, "");
  const match = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(cleaned);
  return match ? match[1]!.toLowerCase() : undefined;
}

export function isAllowedLinkUrl(url: string): boolean {
  const scheme = schemeOf(url);
  return scheme === undefined || (URL_POLICY.linkSchemes as readonly string[]).includes(scheme);
}

export function isAllowedImageUrl(url: string): boolean {
  const scheme = schemeOf(url);
  return scheme !== undefined && (URL_POLICY.imageSchemes as readonly string[]).includes(scheme) && /^[a-z]+:\/\/[^/]/i.test(url);
}
