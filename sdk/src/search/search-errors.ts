import type { SdkErrorCode, SearchErrorCode } from "../error-codes.js";
import { AgentToolsError, asSentence } from "../errors.js";

/** The base of every failure of `searchTool` / `searchAndExecuteTool`. */
export class ToolSearchError extends AgentToolsError<SearchErrorCode | Extract<SdkErrorCode, "REGISTRY_NOT_CONFIGURED">> {}

/** No OpenAI key: neither `openaiApiKey` nor `OPENAI_API_KEY`. Starts with the Python SDK's message. */
export class MissingOpenAIKeyError extends ToolSearchError {
  constructor() {
    super(
      "SEARCH_NO_API_KEY",
      "openai_api_key was not provided to AgentTools. Pass it in the constructor to use search_tool / search_and_execute_tool. " +
        "In TypeScript: new AgentTools({ toolsDbUrl, openaiApiKey }), or set OPENAI_API_KEY.",
    );
  }
}

/** Nothing to choose from: no tool added yet, or the registry's search found nothing. */
export class NoSearchCandidatesError extends ToolSearchError {
  constructor(message = "No tools available. Add tools with tools.add() before searching.") {
    super("SEARCH_NO_CANDIDATES", message);
  }
}

/** The model answered without calling any of the offered functions. */
export class NoToolCallError extends ToolSearchError {
  constructor(model: string, content: string | null | undefined) {
    const said = content ? `; it answered: ${JSON.stringify(content.slice(0, 200))}` : "";
    super(
      "SEARCH_NO_TOOL_CALL",
      `The model "${model}" returned no tool call despite tool_choice "required"${said}. Use a model that supports tool calling.`,
    );
  }
}

/** The model called a function that was not offered (the Python SDK raised the same ValueError text). */
export class UnknownFunctionNameError extends ToolSearchError {
  readonly functionName: string;

  constructor(functionName: string, offered: string[]) {
    super(
      "SEARCH_UNKNOWN_FUNCTION",
      `OpenAI returned unknown function name: '${functionName}'. Offered: ` +
        `${offered.join(", ")}. Retry, or use a model that follows the tool list.`,
    );
    this.functionName = functionName;
  }
}

/** The chosen function's `arguments` were not a JSON object. */
export class InvalidToolArgumentsError extends ToolSearchError {
  readonly rawArguments: string;

  constructor(toolId: string, rawArguments: string, reason: string, cause?: unknown) {
    super(
      "SEARCH_INVALID_ARGUMENTS",
      `The model chose "${toolId}" but its arguments are not a JSON object (${reason}): ${rawArguments.slice(0, 200)}. Retry the search.`,
      { toolId, cause },
    );
    this.rawArguments = rawArguments;
  }
}

/** The OpenAI-compatible server refused the request or could not be reached. */
export class OpenAIRequestError extends ToolSearchError {
  /** HTTP status; undefined when no answer came back (connection refused, timeout). */
  readonly status: number | undefined;

  constructor(baseUrl: string, status: number | undefined, detail: string, cause?: unknown) {
    const what = status === undefined ? "could not be reached" : `answered HTTP ${status}`;
    super("SEARCH_API_ERROR", `The OpenAI API at ${baseUrl} ${what}: ${asSentence(detail)} Check openaiBaseUrl, openaiApiKey and model.`, {
      cause,
    });
    this.status = status;
  }
}
