import type { McpServers } from "../mcp/client/mcp-servers.js";
import { PermissionEngine } from "../permission/permission-engine.js";
import type { Skill, SkillInput } from "../skills/skill.js";
import { SkillError } from "../skills/skill-error.js";
import { SkillViewer } from "../skills/skill-viewer.js";
import { ToolkitSkills } from "../skills/toolkit-skills.js";
import { AgentState } from "../tool/agent-state.js";
import type { ToolBase } from "../tool/tool-base.js";
import { ToolChunk, ToolResultState } from "../tool/tool-chunk.js";
import { ToolResponse } from "../tool/tool-response.js";
import { StreamAbortedError, abortable } from "./abortable-stream.js";
import { ToolCallError } from "./errors.js";
import { InputValidator } from "./input-validator.js";
import { ResetTools, type GroupSwitchboard } from "./reset-tools.js";
import { ToolCallExecutor, type ToolCallExecutorOptions } from "./tool-call-executor.js";
import { BASIC_GROUP, checkGroups, type ToolGroup } from "./tool-group.js";
import { checkMcpServerNames, checkToolNamespace } from "./tool-namespace.js";
import { INTERRUPTED_MESSAGE, describeError, type ToolRunner } from "./tool-runner.js";

type AnyTool = ToolBase<any>;

export interface ToolkitOptions {
  /** The basic group: always available. */
  tools?: AnyTool[];
  /**
   * Skill folders (or folders of them), Skill objects, or sources such as `AgentTools` (registry
   * skills); offered through the `Skill` viewer tool. Folders load here: a bad SKILL.md throws SkillError.
   */
  skills?: SkillInput[];
  /** MCP servers whose tools join the basic group as `mcp__{server}__{tool}` (see `McpServers.connect`). */
  mcps?: McpServers | readonly McpServers[];
  /** Switchable groups, activated by the LLM through `reset_tools` or by `setActiveGroups`. */
  groups?: ToolGroup[];
  /** Decides each call; defaults to DEFAULT mode without rules (everything not read-only asks). */
  engine?: PermissionEngine;
  /** Given to state-injected tools; defaults to a fresh state. */
  state?: AgentState;
}

/** A tool in OpenAI's function-calling format (`tools` of a chat completion request). */
export interface FunctionToolSchema {
  type: "function";
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

/**
 * The tools an agent can use: the basic ones, switchable groups (with the `reset_tools` meta tool),
 * their schemas for an LLM, direct calls (`callTool`, no permission check), and executors
 * (`createExecutor`) that run an LLM's tool calls through the permission engine.
 */
export class Toolkit implements GroupSwitchboard, ToolRunner {
  readonly engine: PermissionEngine;
  readonly state: AgentState;
  private readonly basicTools: AnyTool[];
  private readonly mcps: readonly McpServers[];
  private readonly groups: ToolGroup[];
  private readonly active = new Set<string>();
  private readonly resetTools = new ResetTools(this, (group) => this.skills.namesOf(group));
  private readonly skills: ToolkitSkills;
  private readonly skillViewer: SkillViewer;
  private readonly validator = new InputValidator();

  constructor(options: ToolkitOptions = {}) {
    this.basicTools = [...(options.tools ?? [])];
    this.skills = new ToolkitSkills(options.skills, () => this.activeGroups);
    // A loaded skill's folder becomes readable, never writable, for the file tools (docs/skills.md#skills-in-the-loop).
    this.skillViewer = new SkillViewer(this.skills, (skill) => skill.directory && this.engine.addReadOnlyDirectory(skill.directory));
    this.mcps = options.mcps === undefined ? [] : Array.isArray(options.mcps) ? [...options.mcps] : [options.mcps as McpServers];
    this.groups = (options.groups ?? []).map((group) => ({ ...group, tools: [...group.tools] }));
    checkGroups(this.groups);
    checkMcpServerNames(this.mcps.flatMap((servers) => servers.status().map((status) => status.server)));
    checkToolNamespace(this.allTools());
    for (const group of this.groups) this.skills.addGroup(group.name, group.skills ?? []);
    for (const group of this.groups) if (group.active) this.active.add(group.name);
    this.engine = options.engine ?? new PermissionEngine();
    this.state = options.state ?? new AgentState();
  }

  /**
   * Adds a tool to the basic group, or to an existing switchable group. Throws a ToolkitError when
   * its name is reserved for the SDK's own tools or taken by another tool of this Toolkit.
   */
  registerTool(tool: AnyTool, groupName: string = BASIC_GROUP): void {
    const list = groupName === BASIC_GROUP ? this.basicTools : this.group(groupName).tools;
    checkToolNamespace([...this.allTools(), tool]);
    list.push(tool);
  }

  /** Adds skills (a folder, a folder of skill folders, a Skill or a source) to the `Skill` viewer. */
  registerSkill(skill: SkillInput): void {
    this.skills.add(skill);
  }

  /**
   * Loads `skill` as the `Skill` tool would, offering it first if the Toolkit does not yet (how
   * `AddTool` loads a registry skill): returns its instructions, base directory and resources, and
   * makes its folder readable. Throws SkillError when another skill already has its name.
   */
  loadSkill(skill: Skill): ToolChunk {
    const offered = this.skills.get(skill.name);
    if (offered === undefined) this.skills.add(skill);
    else if (offered !== skill && offered.directory !== skill.directory) {
      throw new SkillError(
        "SKILL_DUPLICATE",
        skill.directory ?? skill.name,
        `this Toolkit already offers another skill named "${skill.name}"${offered.directory ? ` (from ${offered.directory})` : ""}.`,
      );
    }
    return this.skillViewer.load(skill);
  }

  addGroup(group: ToolGroup): void {
    const groups = [...this.groups, { ...group, tools: [...group.tools] }];
    checkGroups(groups);
    checkToolNamespace([...this.allTools(), ...group.tools]);
    this.skills.addGroup(group.name, group.skills ?? []);
    this.groups.push(groups.at(-1)!);
    if (group.active) this.active.add(group.name);
  }

  removeTool(name: string): void {
    for (const list of [this.basicTools, ...this.groups.map((group) => group.tools)]) {
      for (let i = list.length - 1; i >= 0; i--) if (list[i]!.name === name) list.splice(i, 1);
    }
  }

  switchableGroups(): readonly ToolGroup[] {
    return this.groups;
  }

  get activeGroups(): string[] {
    return this.groups.filter((group) => this.active.has(group.name)).map((group) => group.name);
  }

  /** Exactly these groups are active afterwards (the basic group always is). */
  setActiveGroups(names: readonly string[]): void {
    for (const name of names) this.group(name);
    this.active.clear();
    for (const name of names) this.active.add(name);
  }

  /** The tools the LLM may call now (`Skill` first when there are skills); their names are unique (`checkToolNamespace`). */
  getTools(): AnyTool[] {
    return this.toolsOf((group) => this.active.has(group.name), this.skills.list().length > 0);
  }

  getTool(name: string): AnyTool | undefined {
    return this.getTools().find((tool) => tool.name === name);
  }

  /** The available tools in OpenAI's `tools` format. */
  getSchemas(): FunctionToolSchema[] {
    return this.getTools().map((tool) => ({
      type: "function",
      function: { name: tool.name, description: tool.description, parameters: tool.inputSchema },
    }));
  }

  /** The available tool named `name`, or an error saying why it cannot be called. */
  resolve(name: string): { tool: AnyTool } | { error: ToolCallError } {
    const tool = this.getTool(name);
    if (tool) return { tool };
    const inactive = this.groups.find((group) => group.tools.some((candidate) => candidate.name === name));
    if (inactive) {
      return {
        error: new ToolCallError(
          "TOOL_GROUP_INACTIVE",
          `ToolGroupInactiveError: The tool '${name}' in group '${inactive.name}' is currently ` +
            `inactive. You should first activate the group by calling the 'reset_tools' tool.`,
        ),
      };
    }
    return { error: new ToolCallError("TOOL_NOT_IN_TOOLKIT", `ToolNotFoundError: The tool named '${name}' doesn't exist.`) };
  }

  /** Undefined when `input` satisfies the tool's JSON Schema, else what is wrong. */
  validateInput(tool: AnyTool, input: unknown): string | undefined {
    return this.validator.problems(tool, input);
  }

  /**
   * Runs a call directly, WITHOUT asking the permission engine: yields its chunks and returns the
   * accumulated response. Unknown tools, exceptions and interruption become ERROR / INTERRUPTED results.
   */
  async *callTool(
    call: { id: string; name: string; input: Record<string, unknown> },
    options: { signal?: AbortSignal } = {},
  ): AsyncGenerator<ToolChunk, ToolResponse, undefined> {
    const found = this.resolve(call.name);
    if ("error" in found) {
      const chunk = ToolChunk.error(found.error.message);
      yield chunk;
      return new ToolResponse(call.id).append(chunk);
    }
    return yield* this.runTool(found.tool, call.id, call.input, options.signal);
  }

  /** Runs an already resolved tool through its middleware; never throws. */
  async *runTool(
    tool: AnyTool,
    callId: string,
    input: Record<string, unknown>,
    signal?: AbortSignal,
  ): AsyncGenerator<ToolChunk, ToolResponse, undefined> {
    const response = new ToolResponse(callId);
    const injectState = tool.isStateInjected && !tool.isMcp && !tool.isExternalTool;
    const context = { state: injectState ? this.state : undefined, signal, toolCallId: callId };
    try {
      for await (const chunk of abortable(tool.invoke(input, context), signal)) {
        response.append(chunk);
        yield chunk;
      }
    } catch (error) {
      const chunk =
        error instanceof StreamAbortedError
          ? new ToolChunk({ content: [{ type: "text", text: INTERRUPTED_MESSAGE }], state: ToolResultState.INTERRUPTED })
          : ToolChunk.error(describeError(error));
      response.append(chunk);
      yield chunk;
    }
    return response;
  }

  /** An executor for an agent loop, deciding with this toolkit's engine unless another is given. */
  createExecutor(options: ToolCallExecutorOptions = {}): ToolCallExecutor {
    return new ToolCallExecutor(this, options);
  }

  /** Every tool this Toolkit holds, inactive groups' too: the namespace they share. */
  private allTools(): AnyTool[] {
    return this.toolsOf(() => true, true);
  }

  private toolsOf(groupIncluded: (group: ToolGroup) => boolean, withSkills: boolean): AnyTool[] {
    const tools: AnyTool[] = [];
    if (withSkills) tools.push(this.skillViewer);
    if (this.groups.length > 0) tools.push(this.resetTools);
    tools.push(...this.basicTools);
    for (const servers of this.mcps) tools.push(...servers.tools());
    for (const group of this.groups) if (groupIncluded(group)) tools.push(...group.tools);
    return [...new Set(tools)];
  }

  private group(name: string): ToolGroup {
    const group = this.groups.find((candidate) => candidate.name === name);
    if (!group) {
      throw new ToolCallError(
        "TOOL_GROUP_NOT_FOUND",
        `There is no tool group named "${name}"; known groups: ${this.groups.map((g) => g.name).join(", ") || "none"}.`,
      );
    }
    return group;
  }
}
