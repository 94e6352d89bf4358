// `@agent-tools/sdk/registry`: talking to a registry: read, publish, delete, cache, and registry tools in a
// Toolkit (docs/sdk.md, docs/cli.md).
export {
  RegistryClient,
  type EntryWithTag,
  type ListToolsQuery,
  type RegistryClientOptions,
  type SearchToolsQuery,
  type ToolPage,
  type ToolSearchResult,
} from "./registry-client/registry-client.js";
export { RegistryError, RegistryUnavailableError, ToolNotFoundError } from "./registry-client/registry-errors.js";
export type { ToolRecord } from "./registry-client/tool-record.js";
export { isFetchBadPort } from "./registry-client/registry-fetch.js";
export { packTool, type PackedTool, type PackOptions } from "./publish/pack-tool.js";
export { checkBundle, type BundleCheck, type BundleCheckOptions } from "./publish/bundle-checks.js";
export { ToolCheckError, type ToolProblem } from "./publish/tool-check-error.js";
export { RegistryUrlError, checkRegistryUrl } from "./registry-client/registry-url.js";
export { DIRECT_UPLOAD_MAX_BYTES, uploadBundle, type PublishedTool, type UploadBundleOptions } from "./publish/upload-bundle.js";
export { deleteTool } from "./publish/delete-tool.js";
export { deleteToolVersion, setVersionStatus, type VersionStatusChange } from "./publish/version-lifecycle.js";
export {
  createPublisherToken,
  listPublisherTokens,
  revokePublisherToken,
  type MintedPublisherToken,
  type PublisherAction,
  type PublisherTokenInfo,
  type PublisherTokenRequest,
} from "./publish/publisher-tokens.js";
export { readAuditLog, type AuditEvent, type AuditPage } from "./publish/audit-log.js";
export { listPublisherKeys, registerPublisherKey, revokePublisherKey, type RegisteredKey } from "./publish/publisher-keys.js";
export { BundleSigningError, signBundle, type BundleSignature } from "./publish/sign-bundle.js";
export type { RegistryRequestOptions, RegistryWriteOptions } from "./publish/registry-request.js";
export { BundleTransferError, PackError } from "./publish/publish-errors.js";
export { resolveCacheDir } from "./cache/cache-dir.js";
export { ToolCache } from "./cache/tool-cache.js";
export type { LocalToolSource } from "./cache/local-tool-source.js";
export { RegistryTool, registryTool, registryTools, type RegistryToolOptions } from "./registry-tool/registry-tool.js";
export type { RegistryToolSource } from "./registry-tool/registry-tool-source.js";
export type { PublishErrorCode, RegistryErrorCode } from "./error-codes.js";
export { PUBLISHER_KEY_TOOL_NAME, TOOL_DEFINITION_TOOL_NAME } from "./trust/trust-asks.js";
export { versionLifecycle, type VersionLifecycle, type VersionStatus } from "./trust/version-status.js";
