import type { CatalogueResult } from "../catalogue-results.js";
import { PAGE_SIZE } from "../catalogue-query.js";
import { resultCountText, type ResultCount } from "../result-count.js";
import { cataloguePath, toolPath, type CatalogueParams } from "../web-paths.js";
import { Layout } from "./layout.js";

export interface CataloguePageProps {
  params: CatalogueParams & { page: number };
  results: readonly CatalogueResult[];
  hasNextPage: boolean;
  /** Every tool type in the catalogue, for the type filter. */
  types: readonly string[];
  /** The most used tags, suggested by the tag field. */
  tags: readonly string[];
  /** Why there are no more pages although more tools may match (search returns its best matches only). */
  limitNote?: string | undefined;
  /** Where this page sits among the matches, for the line above them. */
  count: ResultCount;
}

/** `/`: the search form with its filters, then one page of results (ranked for a query, by id otherwise). */
export function CataloguePage({ params, results, hasNextPage, types, tags, limitNote, count }: CataloguePageProps) {
  const filtered = Boolean(params.q || params.type || params.tag);
  return (
    <Layout title={params.q ? `${params.q} · Agent Tools` : "Agent Tools"}>
      <h1>{params.q ? `Tools matching “${params.q}”` : "Tools"}</h1>
      {/* biome-ignore lint/a11y/useSemanticElements: <search> is newer than some screen readers; role="search" is announced by all. */}
      <form class="search" method="get" action="/" role="search">
        <input type="search" name="q" value={params.q ?? ""} placeholder="Search tools, e.g. count words" aria-label="Search words" />
        <select name="type" aria-label="Tool type">
          <option value="">Any type</option>
          {types.map((type) => (
            <option value={type} selected={type === params.type}>
              {type}
            </option>
          ))}
        </select>
        <input name="tag" value={params.tag ?? ""} placeholder="Tag" list="known-tags" aria-label="Tag" />
        <datalist id="known-tags">
          {tags.map((tag) => (
            <option value={tag} />
          ))}
        </datalist>
        <button type="submit">Search</button>
      </form>
      {filtered ? (
        <p class="muted">
          <a href="/">Clear the search and filters</a>
        </p>
      ) : null}
      {results.length > 0 ? <p class="muted count">{resultCountText(count)}</p> : null}
      {results.length === 0 ? (
        <p class="empty">{filtered ? "No tool matches. Try fewer or other words, or clear a filter." : "No tools are published yet."}</p>
      ) : (
        <ol class="results" start={(params.page - 1) * PAGE_SIZE + 1}>
          {results.map((tool) => (
            <li>
              <div class="summary">
                <a class="name" href={toolPath(tool.tool_id)}>
                  {tool.tool_id}
                </a>
                {tool.status === "deprecated" ? (
                  <>
                    {" "}
                    <span class="badge deprecated">deprecated</span>
                  </>
                ) : null}
                <div class="description">{tool.tool_search_description}</div>
                {tool.tool_tags.length > 0 ? (
                  <ul class="tags" aria-label="Tags">
                    {tool.tool_tags.map((tag) => (
                      <li>
                        <a href={cataloguePath({ ...params, tag, page: 1 })}>{tag}</a>
                      </li>
                    ))}
                  </ul>
                ) : null}
              </div>
              <p class="meta muted">
                <span class="version">{tool.version}</span>
                {tool.tool_type ? ` · ${tool.tool_type}` : ""}
                {tool.license === undefined ? null : ` · ${tool.license}`}
                {tool.author === undefined ? null : (
                  <>
                    <br />
                    {"by "}
                    <span class="author">{tool.author}</span>
                  </>
                )}
                {tool.publisher === undefined ? null : (
                  <>
                    <br />
                    {"published by "}
                    <span class="publisher">{tool.publisher}</span>
                  </>
                )}
              </p>
            </li>
          ))}
        </ol>
      )}
      <nav class="pages" aria-label="Pages">
        <span>
          {params.page > 1 ? (
            <a rel="prev" href={cataloguePath({ ...params, page: params.page - 1 })}>
              ← Previous
            </a>
          ) : null}
        </span>
        <span class="muted">Page {params.page}</span>
        <span>
          {hasNextPage ? (
            <a rel="next" href={cataloguePath({ ...params, page: params.page + 1 })}>
              Next →
            </a>
          ) : null}
        </span>
      </nav>
      {limitNote && !hasNextPage ? <p class="muted">{limitNote}</p> : null}
    </Layout>
  );
}
