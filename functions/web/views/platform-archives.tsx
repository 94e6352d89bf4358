import { archiveLink } from "../../catalog/present-entry.js";
import type { PublishedEntry } from "../../entry/published-entry.js";

/**
 * A binary tool's platforms, as rows of the archive facts: each with its own download
 * (`?platform=<key>`) and sha256, so a reader sees where it runs before adding it
 * (docs/authoring.md#platforms). Nothing for a tool that declares none.
 */
export function PlatformArchives({ entry }: { entry: PublishedEntry }) {
  const archives = entry.tool_platform_archives ?? [];
  if (archives.length === 0) return null;
  return (
    <>
      <dt>Platforms</dt>
      <dd>
        <ul class="platforms">
          {archives.map((archive) => (
            <li>
              <a href={`${archiveLink("", entry.tool_id, entry.version)}?platform=` + `${encodeURIComponent(archive.key)}`}>
                {archive.key}
              </a>{" "}
              <code class="sha256" title={archive.sha256}>
                {archive.sha256.slice(0, 12)}
              </code>
            </li>
          ))}
        </ul>
      </dd>
    </>
  );
}
