/**
 * A registry ToolEntry as `GET /tools/{id}` returns it: the 20 original fields (defaults filled by
 * the registry) plus the registry-owned ones. Unknown extra keys are kept, so a newer registry's
 * fields reach the tool untouched.
 */
export interface ToolRecord {
  tool_id: string;
  tool_runtime_type?: string;
  tool_parameters?: Record<string, unknown>;
  tool_source_code_link?: string;
  tool_metadata?: Record<string, unknown>;
  tool_search_description?: string;
  tool_tags?: string[];
  tool_type?: string;
  tool_api_spec?: Record<string, unknown>;
  tool_man_page_doc?: string;
  /** Registry-owned: the semver of this entry. */
  version?: string;
  /** Registry-owned: hex sha256 of the tool archive; the SDK refuses an archive that does not match. */
  tool_archive_sha256?: string;
  tool_archive_integrity?: string;
  tool_archive_size?: number;
  published_at?: string;
  updated_at?: string;
  /** Registry-validated capability manifest (docs/sandbox.md); absent means the default sandbox profile. */
  tool_capabilities?: unknown;
  [field: string]: unknown;
}

/** `tool_runtime_type` "python" or "" (or absent) selects the Python runtime; anything else is a binary (seed rule). */
export function isPythonRuntime(record: Pick<ToolRecord, "tool_runtime_type">): boolean {
  const type = record.tool_runtime_type ?? "";
  return type === "" || type === "python";
}
