import { archiveLink } from "../../catalog/present-entry.js";
import type { PublishedEntry } from "../../entry/published-entry.js";
import { exampleInput, inputSchemaOf } from "../input-fields.js";
import { latestVersion, listedVersions } from "../release-trust.js";
import { toolFacts } from "../tool-facts.js";
import { toolSnippets } from "../tool-snippets.js";
import { cataloguePath, toolPath } from "../web-paths.js";
import { Capabilities } from "./capabilities.js";
import { DataTable } from "./data-table.js";
import { formatBytes, formatDate } from "./display-values.js";
import { InputTable } from "./input-table.js";
import { Layout } from "./layout.js";
import { ReleaseFacts } from "./release-facts.js";
import { SnippetBlock } from "./snippet-block.js";
import { PlatformArchives } from "./platform-archives.js";
import { StatusBadge, StatusNotice } from "./version-status.js";

export interface ToolPageProps {
  /** The version shown. */
  entry: PublishedEntry;
  /** Every version, yanked ones included, newest first. */
  versions: readonly PublishedEntry[];
  /** List yanked versions too (`?include_yanked=true`), as `GET /tools/{id}/versions` does. */
  includeYanked: boolean;
  /** The version the URL names (`/t/{id}/{version}`); undefined on the latest page, `/t/{id}`. */
  versionInPath?: string;
  origin: string;
  /** The SDK tarball the registry serves (`/sdk/<file>`), which the snippets install. */
  sdkFile: string | undefined;
  /** tool.md rendered (renderManPage). */
  manPageHtml: string;
}

/**
 * A tool's page: what it does and how to call it in the main column, its facts (license, author,
 * publisher, signature, platforms, archive) beside it on a wide screen and below it on a narrow
 * one, then what it declares and every version.
 */
export function ToolPage({ entry, versions, includeYanked, versionInPath, origin, sdkFile, manPageHtml }: ToolPageProps) {
  const latest = latestVersion(versions);
  const { listed, hiddenYanked } = listedVersions(versions, entry.version, includeYanked);
  const schema = inputSchemaOf(entry.tool_api_spec);
  const snippets = toolSnippets({
    origin,
    toolId: entry.tool_id,
    version: entry.version,
    sha256: entry.tool_archive_sha256,
    input: exampleInput(schema),
    sdkFile,
  });
  const facts = toolFacts(entry);
  return (
    <Layout title={`${entry.tool_id} ${entry.version} · Agent Tools`}>
      <p>
        <a href="/">← All tools</a>
      </p>
      <h1>{entry.tool_id}</h1>
      <p class="muted">
        <span class="version">{entry.version}</span>
        {entry.version === latest ? (
          <>
            {" "}
            · <span class="badge latest">latest</span>
          </>
        ) : latest === undefined ? null : (
          <>
            {" "}
            · latest: <a href={toolPath(entry.tool_id)}>{latest}</a>
          </>
        )}
        {entry.status === "deprecated" || entry.status === "yanked" ? (
          <>
            {" "}
            · <StatusBadge entry={entry} />
          </>
        ) : null}
        {entry.tool_type ? (
          <>
            {" "}
            · <a href={cataloguePath({ type: entry.tool_type })}>{entry.tool_type}</a>
          </>
        ) : null}
        {entry.tool_runtime_type ? <> · {entry.tool_runtime_type}</> : null}
      </p>
      <StatusNotice entry={entry} latest={latest} />
      <div class="tool-layout">
        <div class="tool-main">
          <p class="description">{entry.tool_search_description}</p>
          {entry.tool_tags.length > 0 ? (
            <ul class="tags" aria-label="Tags">
              {entry.tool_tags.map((tag) => (
                <li>
                  <a href={cataloguePath({ tag })}>{tag}</a>
                </li>
              ))}
            </ul>
          ) : null}

          <h2 id="use">Use it</h2>
          {snippets.map((snippet) => (
            <SnippetBlock snippet={snippet} />
          ))}
          {sdkFile === undefined ? (
            <p class="muted">This registry serves no SDK package (GET /sdk), so only the curl snippet can be given here.</p>
          ) : null}

          <h2 id="input">Input</h2>
          <InputTable schema={schema} />

          <h2 id="capabilities">Capabilities</h2>
          <Capabilities declared={(entry as unknown as Record<string, unknown>).tool_capabilities} />

          <h2 id="docs">Documentation</h2>
          {manPageHtml.trim() ? (
            <div class="doc" dangerouslySetInnerHTML={{ __html: manPageHtml }} />
          ) : (
            <p class="muted">This tool has no tool.md.</p>
          )}
        </div>

        <aside class="tool-side" aria-labelledby="about">
          <h2 id="about">About</h2>
          <dl class="facts release">
            <dt>License</dt>
            <dd class="license">{facts.license ?? <span class="muted">not stated</span>}</dd>
            <dt>Author</dt>
            <dd class="author">{facts.author ?? <span class="muted">not stated</span>}</dd>
            <ReleaseFacts entry={entry} />
            {facts.platforms.length > 0 ? (
              <>
                <dt>Platforms</dt>
                <dd class="platforms">{facts.platforms.join(", ")}</dd>
              </>
            ) : null}
          </dl>

          <h2 id="archive">Archive</h2>
          <dl class="facts">
            <dt>Size</dt>
            <dd>
              {formatBytes(entry.tool_archive_size)} ({entry.tool_archive_size} bytes)
            </dd>
            <dt>sha256</dt>
            <dd>
              <code class="sha256">{entry.tool_archive_sha256}</code>
            </dd>
            <dt>Integrity</dt>
            <dd>
              <code>{entry.tool_archive_integrity}</code>
            </dd>
            <dt>Published</dt>
            <dd>
              <time datetime={entry.published_at}>{formatDate(entry.published_at)}</time>
            </dd>
            <dt>Download</dt>
            <dd>
              <a href={archiveLink("", entry.tool_id, entry.version)}>tool.zip</a>
            </dd>
            <PlatformArchives entry={entry} />
          </dl>
        </aside>
      </div>

      <h2 id="versions">Versions</h2>
      <DataTable name="versions" columns={["Version", "Status", "Published", "Archive"]}>
        {listed.map((version) => (
          <tr>
            <td>
              {version.version === entry.version ? (
                <strong aria-current="page">{version.version}</strong>
              ) : (
                <a href={toolPath(version.tool_id, version.version, includeYanked)}>{version.version}</a>
              )}
            </td>
            <td>
              {version.version === latest ? <span class="badge latest">latest</span> : null}
              <StatusBadge entry={version} withMessage />
              {version.version !== latest && (version.status ?? "active") === "active" ? "superseded" : null}
            </td>
            <td>
              <time datetime={version.published_at}>{formatDate(version.published_at)}</time>
            </td>
            <td>{formatBytes(version.tool_archive_size)}</td>
          </tr>
        ))}
      </DataTable>
      {hiddenYanked > 0 ? (
        <p class="muted">
          {hiddenYanked} yanked {hiddenYanked === 1 ? "version is" : "versions are"} hidden, as in <code>GET /tools/{"{id}"}/versions</code>
          : <a href={`${toolPath(entry.tool_id, versionInPath, true)}#versions`}>show yanked versions</a>
        </p>
      ) : includeYanked && versions.some((version) => version.status === "yanked") ? (
        <p class="muted">
          <a href={`${toolPath(entry.tool_id, versionInPath)}#versions`}>Hide yanked versions</a>
        </p>
      ) : null}
    </Layout>
  );
}
