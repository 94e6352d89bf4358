// `@agent-tools/sdk/search`: choosing tools: LLM selection and the SearchTools / AddTool meta tools (docs/search.md).
export { DEFAULT_SEARCH_MODEL, OpenAIToolSelector, type OpenAISearchOptions, type ToolSelection } from "./openai-tool-selector.js";
export { DEFAULT_REGISTRY_CANDIDATES, type SearchCandidates } from "./search-candidates.js";
export {
  InvalidToolArgumentsError,
  MissingOpenAIKeyError,
  NoSearchCandidatesError,
  NoToolCallError,
  OpenAIRequestError,
  ToolSearchError,
  UnknownFunctionNameError,
} from "./search-errors.js";
export { ToolSearch, type ToolSearchHost, type ToolSearchOptions } from "./tool-search.js";
export { AddToolTool, type AddToolHost } from "./add-tool-tool.js";
export { addSearchMetaTools } from "./search-meta-tools.js";
export { DEFAULT_SEARCH_TOOLS_RESULTS, MAX_SEARCH_TOOLS_RESULTS, SearchToolsTool, type FoundTool } from "./search-tools-tool.js";
export type { SearchErrorCode } from "../error-codes.js";
