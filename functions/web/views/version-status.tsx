import type { PublishedEntry } from "../../entry/published-entry.js";
import { releaseStatus, tableMessage } from "../release-trust.js";
import { toolPath } from "../web-paths.js";

/** `deprecated` or `yanked` as a badge (nothing for an active version); the message goes in the cell with `withMessage`. */
export function StatusBadge({ entry, withMessage = false }: { entry: PublishedEntry; withMessage?: boolean }) {
  const { status, message } = releaseStatus(entry);
  if (status === "active") return null;
  return (
    <>
      <span class={`badge ${status}`}>{status}</span>
      {withMessage && message ? <span class="status-message">{tableMessage(message)}</span> : null}
    </>
  );
}

/**
 * What a deprecated or yanked version's page says first: the publisher's message or reason, and
 * what it means for installs (docs/sdk.md, "Publisher trust": a deprecated version runs with a
 * warning; a yanked one only from an exact pin).
 */
export function StatusNotice({ entry, latest }: { entry: PublishedEntry; latest: string | undefined }) {
  const { status, message } = releaseStatus(entry);
  if (status === "active") return null;
  const pin = `${entry.tool_id}@${entry.version}`;
  const instead =
    latest === undefined || latest === entry.version ? null : (
      <>
        {" "}
        Use <a href={toolPath(entry.tool_id)}>{latest}</a>, the latest version.
      </>
    );
  return (
    <section class={`notice ${status}`} role="alert" aria-label={status === "yanked" ? "Yanked version" : "Deprecated version"}>
      {status === "yanked" ? (
        <>
          <p>
            <strong>This version is yanked.</strong> Its publisher withdrew it; the reason given:
          </p>
          <blockquote class="status-reason">{message ?? "(none given)"}</blockquote>
          <p>
            Latest, listings and search skip it, and <code>add("{entry.tool_id}")</code> never installs it: only an exact pin (
            <code>{pin}</code>) still does.
            {instead}
          </p>
        </>
      ) : (
        <>
          <p>
            <strong>This version is deprecated.</strong> Its publisher's message:
          </p>
          <blockquote class="status-reason">{message ?? "(none given)"}</blockquote>
          <p>
            It still installs; the SDK warns once when an agent uses it.
            {instead}
          </p>
        </>
      )}
    </section>
  );
}
