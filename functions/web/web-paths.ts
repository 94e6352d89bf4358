/** The page of a tool (its latest version) or of one version; `includeYanked` lists its yanked versions too. */
export function toolPath(toolId: string, version?: string, includeYanked = false): string {
  const path = `/t/${encodeURIComponent(toolId)}${version === undefined ? "" : `/${encodeURIComponent(version)}`}`;
  return includeYanked ? `${path}?include_yanked=true` : path;
}

export interface CatalogueParams {
  q?: string;
  type?: string;
  tag?: string;
  page?: number;
}

/** The catalogue page for these parameters; empty ones and page 1 are left out of the URL. */
export function cataloguePath(params: CatalogueParams): string {
  const search = new URLSearchParams();
  if (params.q) search.set("q", params.q);
  if (params.type) search.set("type", params.type);
  if (params.tag) search.set("tag", params.tag);
  if (params.page !== undefined && params.page > 1) search.set("page", String(params.page));
  const query = search.toString();
  return query ? `/?${query}` : "/";
}
