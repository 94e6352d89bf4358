import type { PublishedEntry } from "../../entry/published-entry.js";
import { publisherLabel, publisherOf, shortKeyId } from "../release-trust.js";

/**
 * Who publishes the version and whether it is signed, as rows of the page's facts list. The
 * registry verified the signature against the publisher's registered key when it was uploaded
 * (docs/registry.md, "Signed bundles"); the SDK verifies it again before it runs the tool.
 */
export function ReleaseFacts({ entry }: { entry: PublishedEntry }) {
  const { signature } = entry;
  const publisher = publisherOf(entry);
  return (
    <>
      <dt>Publisher</dt>
      <dd>
        <span class="publisher">{publisherLabel(publisher)}</span>
        {publisher === publisherLabel(publisher) ? null : <span class="muted"> (the admin token)</span>}
      </dd>
      <dt>Signature</dt>
      <dd class="signature">
        {signature ? (
          <>
            <span class="badge signed">signed</span> verified by the registry at upload, key{" "}
            <code class="key-id" title={signature.key_id}>
              {shortKeyId(signature.key_id)}
            </code>
          </>
        ) : (
          <>
            <span class="badge unsigned">unsigned</span> agents with <code>requireSignatures</code> refuse it
          </>
        )}
      </dd>
    </>
  );
}
