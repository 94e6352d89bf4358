export {
  RegistryClient,
  type EntryWithTag,
  type ListToolsQuery,
  type RegistryClientOptions,
  type SearchToolsQuery,
  type ToolPage,
  type ToolSearchResult,
} from "./registry-client.js";
export { isFetchBadPort, registryFetch } from "./registry-fetch.js";
export { RegistryError, RegistryUnavailableError, ToolNotFoundError } from "./registry-errors.js";
export { isPythonRuntime, type ToolRecord } from "./tool-record.js";
