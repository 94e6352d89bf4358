import { describeFetchFailure, RegistryError, RegistryUnavailableError, registryAnswerError } from "./registry-errors.js";
import { registryFetch } from "./registry-fetch.js";
import { checkRegistryUrl } from "./registry-url.js";
import type { ToolRecord } from "./tool-record.js";

export interface RegistryClientOptions {
  /** Per-request timeout; a registry that does not answer in time is "unavailable". */
  timeoutMs?: number;
  /** Replaceable for tests and proxies; defaults to Node's global fetch (node:http for ports fetch refuses, such as 6000). */
  fetch?: typeof fetch;
  /** Bytes of an archive received so far, and its size when the registry or storage sent Content-Length. */
  onDownloadProgress?: (toolId: string, received: number, total: number | undefined) => void;
}

export interface ListToolsQuery {
  limit?: number;
  cursor?: string;
  type?: string;
  tag?: string;
  updatedSince?: string;
}

export interface ToolPage {
  tools: ToolRecord[];
  /** Pass back as `cursor` for the next page; undefined on the last page. */
  nextCursor: string | undefined;
}

/** `GET /tools/search` parameters: `q` is 1 to 512 characters, `limit` 1 to 100 (default 10). */
export interface SearchToolsQuery {
  q: string;
  limit?: number;
  type?: string;
  tag?: string;
}

/** One ranked hit of `GET /tools/search` (a summary: fetch the entry for the rest). */
export interface ToolSearchResult {
  tool_id: string;
  version: string;
  score: number;
  tool_search_description: string;
  tool_tags: string[];
  tool_type: string;
  /** Tools with the same description, shown as this one result ("n similar"); absent when none. */
  similar_tool_ids?: string[];
}

/** An entry with the validator the registry sent for it (`ETag`), for a later conditional GET. */
export interface EntryWithTag {
  entry: ToolRecord;
  etag: string | undefined;
}

const DEFAULT_TIMEOUT_MS = 30_000;

function versionPath(toolId: string, version: string): string {
  return `/tools/${encodeURIComponent(toolId)}/versions/${encodeURIComponent(version)}`;
}

/** Read-only client for the registry's public endpoints (see DESIGN.md, "Registry wire contract"). */
export class RegistryClient {
  readonly baseUrl: string;
  private readonly timeoutMs: number;
  private readonly fetchImpl: typeof fetch;
  private readonly onDownloadProgress: RegistryClientOptions["onDownloadProgress"];

  /** Throws `RegistryUrlError` (`REGISTRY_URL_INVALID`) for a URL that is no registry's base: not http(s), or a route such as `…/tools`. */
  constructor(baseUrl: string, options: RegistryClientOptions = {}) {
    this.baseUrl = checkRegistryUrl(baseUrl);
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.fetchImpl = options.fetch ?? registryFetch;
    this.onDownloadProgress = options.onDownloadProgress;
  }

  /** The latest version's entry. */
  getTool(toolId: string): Promise<ToolRecord> {
    return this.getJson(`/tools/${encodeURIComponent(toolId)}`, toolId) as Promise<ToolRecord>;
  }

  /** The latest version's entry with its ETag, to revalidate it later as that version (`getToolVersionIfChanged`). */
  async getToolWithTag(toolId: string): Promise<EntryWithTag> {
    const response = await this.request(`${this.baseUrl}/tools/${encodeURIComponent(toolId)}`, toolId);
    return { entry: (await this.readJson(response, toolId)) as ToolRecord, etag: response.headers.get("etag") ?? undefined };
  }

  /** One published version's entry. */
  getToolVersion(toolId: string, version: string): Promise<ToolRecord> {
    return this.getJson(versionPath(toolId, version), toolId) as Promise<ToolRecord>;
  }

  /**
   * Revalidates a version's entry held from an earlier answer: undefined when the registry says it
   * is unchanged (`etag` still matches: one small 304), else the current entry and its ETag. A
   * version can change: PUT edits the latest one, and a deleted tool's version can be published again.
   */
  async getToolVersionIfChanged(toolId: string, version: string, etag: string | undefined): Promise<EntryWithTag | undefined> {
    const response = await this.request(
      `${this.baseUrl}${versionPath(toolId, version)}`,
      toolId,
      etag === undefined ? {} : { "if-none-match": etag },
    );
    if (response.status === 304) return undefined;
    return { entry: (await this.readJson(response, toolId)) as ToolRecord, etag: response.headers.get("etag") ?? undefined };
  }

  /**
   * Every version of a tool, newest first: page by page (`Link: rel="next"`), as the registry answers
   * at most 1,000 a page. Yanked versions only with `includeYanked` (each entry's `status` says which).
   */
  async listVersions(toolId: string, options: { includeYanked?: boolean } = {}): Promise<ToolRecord[]> {
    const versions: ToolRecord[] = [];
    let cursor: string | undefined;
    do {
      const params = new URLSearchParams({
        ...(options.includeYanked === true ? { include_yanked: "true" } : {}),
        ...(cursor === undefined ? {} : { cursor }),
      });
      const search = params.size === 0 ? "" : `?${params}`;
      const response = await this.request(`${this.baseUrl}/tools/${encodeURIComponent(toolId)}/versions${search}`, toolId);
      const page = await this.readJson(response, toolId);
      if (!Array.isArray(page)) {
        throw new RegistryError(response.status, "Invalid response from server", "expected a JSON array of versions", { toolId });
      }
      versions.push(...(page as ToolRecord[]));
      cursor = nextCursorFrom(response.headers.get("link"));
    } while (cursor !== undefined);
    return versions;
  }

  /**
   * A publisher's signing keys (`GET /publishers/{name}/keys`): `[{key_id, public_key, created_at,
   * revoked_at?}]` as the registry answered, unchecked (the SDK checks each key itself).
   */
  listPublisherKeys(owner: string): Promise<unknown> {
    return this.getJson(`/publishers/${encodeURIComponent(owner)}/keys`, undefined);
  }

  /** One page of latest entries; follow `nextCursor` (from the `Link: rel="next"` header) for more. */
  async listTools(query: ListToolsQuery = {}): Promise<ToolPage> {
    const params = new URLSearchParams();
    if (query.limit !== undefined) params.set("limit", String(query.limit));
    if (query.cursor !== undefined) params.set("cursor", query.cursor);
    if (query.type !== undefined) params.set("type", query.type);
    if (query.tag !== undefined) params.set("tag", query.tag);
    if (query.updatedSince !== undefined) params.set("updated_since", query.updatedSince);
    const search = params.size > 0 ? `?${params}` : "";
    const response = await this.request(`${this.baseUrl}/tools${search}`, undefined);
    const tools = (await this.readJson(response, undefined)) as ToolRecord[];
    return { tools, nextCursor: nextCursorFrom(response.headers.get("link")) };
  }

  /** Every latest entry, page by page. */
  async *listAllTools(query: Omit<ListToolsQuery, "cursor"> = {}): AsyncGenerator<ToolRecord> {
    let cursor: string | undefined;
    do {
      const page = await this.listTools({ ...query, ...(cursor === undefined ? {} : { cursor }) });
      yield* page.tools;
      cursor = page.nextCursor;
    } while (cursor !== undefined);
  }

  /** Ranked search over the latest entries, best match first. */
  async searchTools(query: SearchToolsQuery): Promise<ToolSearchResult[]> {
    const params = new URLSearchParams({ q: query.q });
    if (query.limit !== undefined) params.set("limit", String(query.limit));
    if (query.type !== undefined) params.set("type", query.type);
    if (query.tag !== undefined) params.set("tag", query.tag);
    const body = (await this.getJson(`/tools/search?${params}`, undefined)) as { results: ToolSearchResult[] };
    return body.results;
  }

  /**
   * The archive bytes of an entry. Uses `tool_source_code_link` (relative links resolve against the
   * registry) and follows the registry's redirect to storage, or takes the bytes it proxies itself.
   */
  async downloadArchive(record: ToolRecord): Promise<Uint8Array> {
    const response = await this.request(this.archiveUrl(record), record.tool_id);
    if (!response.ok) await this.throwFor(response, record.tool_id);
    const report = this.onDownloadProgress;
    if (report === undefined || response.body === null) return new Uint8Array(await response.arrayBuffer());
    const total = Number(response.headers.get("content-length")) || undefined;
    const chunks: Uint8Array[] = [];
    let received = 0;
    for await (const chunk of response.body) {
      chunks.push(chunk);
      received += chunk.byteLength;
      report(record.tool_id, received, total);
    }
    return new Uint8Array(Buffer.concat(chunks));
  }

  archiveUrl(record: ToolRecord): string {
    const link = record.tool_source_code_link;
    if (link) return new URL(link, `${this.baseUrl}/`).toString();
    const id = encodeURIComponent(record.tool_id);
    return record.version === undefined
      ? `${this.baseUrl}/tools/${id}/archive`
      : `${this.baseUrl}/tools/${id}/versions/${encodeURIComponent(record.version)}/archive`;
  }

  private async getJson(path: string, toolId: string | undefined): Promise<unknown> {
    const response = await this.request(`${this.baseUrl}${path}`, toolId);
    return this.readJson(response, toolId);
  }

  private async request(url: string, toolId: string | undefined, headers: Record<string, string> = {}): Promise<Response> {
    let response: Response;
    try {
      response = await this.fetchImpl(url, { signal: AbortSignal.timeout(this.timeoutMs), redirect: "follow", headers });
    } catch (error) {
      const reason =
        error instanceof Error && error.name === "TimeoutError" ? `no answer within ${this.timeoutMs} ms` : describeFetchFailure(error);
      throw new RegistryUnavailableError(this.baseUrl, reason, { toolId, cause: error });
    }
    if (response.status === 502 || response.status === 503 || response.status === 504) {
      await response.body?.cancel();
      throw new RegistryUnavailableError(this.baseUrl, `HTTP ${response.status} from ${url}`, { toolId });
    }
    return response;
  }

  private async readJson(response: Response, toolId: string | undefined): Promise<unknown> {
    if (!response.ok) await this.throwFor(response, toolId);
    const text = await response.text();
    try {
      return JSON.parse(text);
    } catch {
      throw new RegistryError(response.status, "Invalid response from server", `expected JSON, got: ${text.slice(0, 200)}`, {
        ...(toolId === undefined ? {} : { toolId }),
      });
    }
  }

  private async throwFor(response: Response, toolId: string | undefined): Promise<never> {
    throw registryAnswerError(response.status, await response.text(), toolId);
  }
}

function nextCursorFrom(link: string | null): string | undefined {
  const next = link?.split(",").find((part) => /rel="?next"?/.test(part));
  const url = next?.match(/<([^>]*)>/)?.[1];
  if (url === undefined) return undefined;
  return new URL(url, "http://registry.invalid").searchParams.get("cursor") ?? undefined;
}
