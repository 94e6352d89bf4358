import type { RegistryClient } from "../registry-client/registry-client.js";
import type { ToolRecord } from "../registry-client/tool-record.js";
import type { OpenAIToolSelector, ToolSelection } from "./openai-tool-selector.js";
import { registryCandidates, type SearchCandidates } from "./search-candidates.js";
import { ToolSearchError } from "./search-errors.js";
import { restoreToolModel, splitToolModel } from "./tool-model.js";

/** What tool search needs from `AgentTools`. */
export interface ToolSearchHost {
  /** The records of the added tools (with their merged parameters). */
  loadedRecords(): ToolRecord[];
  readonly registry: RegistryClient | undefined;
  /** Runs a tool, adding it first when needed. */
  executeToolById(toolId: string, input: unknown): Promise<unknown>;
}

export type ToolSearchOptions = SearchCandidates;

/**
 * `searchTool` and `searchAndExecuteTool` (the Python SDK's `search_tool` / `search_and_execute_tool`,
 * docs/design/compatibility.md#search-request).
 */
export class ToolSearch {
  constructor(
    private readonly host: ToolSearchHost,
    private readonly selector: OpenAIToolSelector,
  ) {}

  /** The tool id the model picks for `prompt` (sent without any input); nothing runs. */
  async searchTool(prompt: string, options: ToolSearchOptions = {}): Promise<string> {
    return (await this.resolve(prompt, undefined, options)).toolId;
  }

  /**
   * Picks a tool for `prompt` plus `input`, then runs it with the arguments the model wrote for it
   * (not `input` itself), `tool_model` passed through untouched.
   */
  async searchAndExecuteTool(prompt: string, input: Record<string, unknown> = {}, options: ToolSearchOptions = {}): Promise<unknown> {
    if (input === null || typeof input !== "object" || Array.isArray(input)) {
      const got = input === null ? "null" : Array.isArray(input) ? "an array" : typeof input;
      throw new ToolSearchError("SEARCH_INVALID_INPUT", `searchAndExecuteTool() input must be a plain object (or {}), got ${got}.`);
    }
    const { input: forModel, toolModel } = splitToolModel(input);
    const selection = await this.resolve(prompt, forModel, options);
    return this.host.executeToolById(selection.toolId, restoreToolModel(selection.arguments, toolModel));
  }

  /** The model's choice and arguments without running anything. */
  async resolve(prompt: string, input: Record<string, unknown> | undefined, options: ToolSearchOptions = {}): Promise<ToolSelection> {
    this.selector.assertConfigured();
    const candidates =
      options.from === "registry" ? await registryCandidates(this.host.registry, prompt, options) : this.host.loadedRecords();
    return this.selector.select(prompt, candidates, input);
  }
}
