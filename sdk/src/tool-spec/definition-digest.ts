import { createHash } from "node:crypto";
import { canonicalize } from "json-canonicalize";
import { readToolCapabilities } from "../sandbox/capabilities/tool-capabilities.js";
import { TOOL_SPEC_SCHEMA } from "./tool-spec-schema.js";

/**
 * The ToolEntry fields a publisher's signature covers (docs/design/publisher-trust.md): every
 * original field except `tool_source_code_link`, which the registry computes per request from the
 * origin a client reached. Fixed here rather than derived from `TOOL_SPEC_SCHEMA`, so a field
 * added to spec.json later cannot change what signatures made today cover.
 */
export const DEFINITION_DIGEST_FIELDS = [
  "tool_id",
  "tool_metadata",
  "tool_search_description",
  "tool_tags",
  "tool_type",
  "tool_man_page_doc",
  "tool_api_spec",
  "tool_custom_actions_dsl_map",
  "default_tool_usage_credentials",
  "tool_settings",
  "tool_parameters",
  "tool_execution_mode",
  "tool_policy_rule_uri",
  "tool_runtime_type",
  "tool_service_url",
  "tool_system_function_rpc_id",
  "tool_validation_policy_rule_uri",
  "tool_validation_mode",
] as const;

/** Spec fields signed only when a spec declares them: adding them did not change any digest made before. */
export const DIGESTED_WHEN_PRESENT = ["tool_capabilities", "tool_platforms"] as const;

/**
 * The hex sha256 of what a tool *is*, as signed by its publisher together with the archive's
 * digest: the canonical JSON (RFC 8785: keys sorted recursively, no whitespace) of the fields in
 * `DEFINITION_DIGEST_FIELDS`, missing or null ones as the defaults the registry fills in (so a spec and
 * the entry the registry builds from it digest alike), plus `tool_capabilities` and `tool_platforms`
 * when present (the manifest normalised as the registry stores it, so a spec's manifest and the
 * served one agree; both are `DIGESTED_WHEN_PRESENT`, so tools without them digest as before). Registry-owned
 * fields (`version`, hashes, times, `owner`, `status`, `signature`) and
 * unknown keys do not count: they are not the publisher's to sign.
 *
 * @example
 * definitionDigest({ tool_id: "text-stats", tool_tags: ["text"] }) ===
 *   definitionDigest({ tool_tags: ["text"], tool_id: "text-stats", tool_type: "", version: "1.0.0" }); // true
 */
export function definitionDigest(entry: Record<string, unknown>): string {
  const signed: Record<string, unknown> = {};
  for (const field of DEFINITION_DIGEST_FIELDS) {
    const value = entry[field];
    signed[field] = value === undefined || value === null ? defaultOf(field) : value;
  }
  const capabilities = entry.tool_capabilities;
  if (capabilities !== undefined && capabilities !== null) signed.tool_capabilities = normalisedCapabilities(capabilities);
  const platforms = entry.tool_platforms;
  if (platforms !== undefined && platforms !== null) signed.tool_platforms = platforms;
  return createHash("sha256").update(canonicalize(signed), "utf8").digest("hex");
}

/** What the registry stores for a field a spec leaves out: `""`, `{}` or `[]` by the field's type in spec.json's schema. */
function defaultOf(field: (typeof DEFINITION_DIGEST_FIELDS)[number]): string | Record<string, never> | never[] {
  const { type } = TOOL_SPEC_SCHEMA.properties[field];
  return type === "string" ? "" : type === "object" ? {} : [];
}

/** A malformed manifest is digested as it is: it then matches no valid signature, and the SDK refuses it anyway. */
function normalisedCapabilities(value: unknown): unknown {
  try {
    return readToolCapabilities(value);
  } catch {
    return value;
  }
}
