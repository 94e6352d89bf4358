import { AgentToolsError } from "../errors.js";
import type { PermissionEngine, PermissionResult } from "../permission/permission-engine.js";
import { toPermissionRule } from "../permission/rule-input.js";
import { PermissionBehavior } from "../permission/types.js";
import type { ToolBase } from "../tool/tool-base.js";
import { ToolChunk, ToolResultState } from "../tool/tool-chunk.js";
import { ToolResponse } from "../tool/tool-response.js";
import { ToolCallError, ToolkitError } from "./errors.js";
import { mergeStreams } from "./merge-streams.js";
import {
  ToolCallState,
  type ConfirmResult,
  type ConfirmationRequest,
  type ExecutorAnswer,
  type ExternalExecutionRequest,
  type ExternalExecutionResult,
  type ToolCall,
  type ToolExecutionEvent,
} from "./tool-call.js";
import { INTERRUPTED_MESSAGE, describeError, type ToolRunner } from "./tool-runner.js";
import type { ToolCallErrorCode } from "../error-codes.js";

/** How `runToCompletion` gets the answers an agent loop would otherwise collect itself. */
export interface ExecutionHandlers {
  /**
   * Ask the user about these calls; answer each (unanswered calls are refused). Without it, every call that
   * needs a confirmation is refused.
   */
  confirm?(requests: ConfirmationRequest[]): Promise<ConfirmResult[]>;
  /** Execute these calls elsewhere; without it, external calls end with an error result. */
  executeExternally?(requests: ExternalExecutionRequest[]): Promise<ExternalExecutionResult[]>;
  /** Sees every event (e.g. to stream chunks to a UI). */
  onEvent?(event: ToolExecutionEvent): void;
}

export interface ToolCallExecutorOptions {
  /** Defaults to the toolkit's engine. */
  engine?: PermissionEngine;
  /** Aborting interrupts running calls: they end with an INTERRUPTED result. */
  signal?: AbortSignal;
}

interface CallRecord {
  call: ToolCall;
  state: ToolCallState;
  tool?: ToolBase<any>;
  input?: Record<string, unknown>;
  request?: ConfirmationRequest;
  response?: ToolResponse;
}

type Evaluation = { kind: "finished"; event: ToolExecutionEvent } | { kind: "ask"; decision: PermissionResult } | { kind: "allow" };

const USER_DENIED = (name: string) => `<system-reminder>The execution of tool "${name}" is denied by user!</system-reminder>`;

/**
 * Runs an LLM's tool calls as docs/design/permission-model.md#call-states describes: each call
 * is looked up, its input validated against the tool's JSON Schema and checked by the engine; DENY
 * ends it, ALLOW runs it (or hands it out when external), ASK parks it until the user answers.
 * Consecutive concurrency-safe calls run in parallel; an unsafe call runs alone and, if it must wait,
 * holds back the calls after it. Bad input of any kind becomes an error result, never an exception.
 *
 * Drive it with `run(calls)`; when it stops waiting for answers, call `resume(answer)`; repeat until
 * `waiting` is false. `responses` then holds one ToolResponse per call, in call order.
 */
export class ToolCallExecutor {
  private records: CallRecord[] = [];
  private cursor = 0;
  /** ASKs of a parallel batch already covered by a suggestion shown in it: re-checked once the user answers. */
  private held: CallRecord[] = [];
  private readonly engine: PermissionEngine;
  private readonly signal: AbortSignal | undefined;

  constructor(
    private readonly toolkit: ToolRunner,
    options: ToolCallExecutorOptions = {},
  ) {
    this.engine = options.engine ?? toolkit.engine;
    this.signal = options.signal;
  }

  /** True while some call waits for the user's confirmation or for an external result. */
  get waiting(): boolean {
    return this.records.some((record) => record.state === ToolCallState.ASKING || record.state === ToolCallState.SUBMITTED);
  }

  /** The finished calls' responses, in call order. */
  get responses(): ToolResponse[] {
    return this.records.flatMap((record) => (record.response ? [record.response] : []));
  }

  /** Starts a new round of tool calls (the previous round must not be waiting). */
  async *run(calls: ToolCall[]): AsyncGenerator<ToolExecutionEvent, void, undefined> {
    if (this.waiting) {
      throw new ToolkitError(
        "EXECUTOR_WAITING",
        "This executor is waiting for confirmations or external results; answer them with resume() before run() is called again.",
      );
    }
    this.records = calls.map((call) => ({ call, state: ToolCallState.PENDING }));
    this.cursor = 0;
    this.held = [];
    yield* this.drive();
  }

  /** Continues after the user's confirmations or the external results arrived. */
  async *resume(answer: ExecutorAnswer): AsyncGenerator<ToolExecutionEvent, void, undefined> {
    if ("confirmResults" in answer) yield* this.applyConfirmations(answer.confirmResults);
    else yield* this.applyExternalResults(answer.executionResults);
    if (!this.waiting) yield* this.drive();
  }

  /**
   * The whole round in one call: runs `calls`, gets confirmations and external results from
   * `handlers` whenever the executor waits, and returns one response per call, in call order.
   */
  async runToCompletion(calls: ToolCall[], handlers: ExecutionHandlers = {}): Promise<ToolResponse[]> {
    const pending: AsyncGenerator<ToolExecutionEvent, void, undefined>[] = [this.run(calls)];
    for (let events = pending.shift(); events; events = pending.shift()) {
      for await (const event of events) {
        handlers.onEvent?.(event);
        if (event.type === "require_user_confirm") {
          const answers = handlers.confirm ? await handlers.confirm(event.toolCalls) : [];
          const answered = new Set(answers.map((answer) => answer.toolCallId));
          const refused = event.toolCalls
            .filter((request) => !answered.has(request.id))
            .map((request) => ({ toolCallId: request.id, confirmed: false }));
          pending.push(this.resume({ confirmResults: [...answers, ...refused] }));
        } else if (event.type === "require_external_execution") {
          const results = handlers.executeExternally
            ? await handlers.executeExternally(event.toolCalls)
            : event.toolCalls.map((request) => ({
                toolCallId: request.id,
                output: `No external executor is configured for tool "${request.name}".`,
                state: ToolResultState.ERROR,
              }));
          pending.push(this.resume({ executionResults: results }));
        }
      }
    }
    return this.responses;
  }

  private async *drive(): AsyncGenerator<ToolExecutionEvent, void, undefined> {
    if (this.held.length > 0) {
      const again = this.held;
      this.held = [];
      for (const record of again) record.state = ToolCallState.PENDING;
      yield* this.processBatch(again, true);
      if (this.waiting) return;
    }
    while (this.cursor < this.records.length) {
      if (this.signal?.aborted) {
        yield* this.interruptRemaining();
        return;
      }
      const batch = this.nextBatch();
      yield* this.processBatch(batch, batch.length > 1 || this.isConcurrencySafe(batch[0]!));
      if (this.waiting) return;
    }
  }

  /** After an interruption, the calls not started yet end INTERRUPTED instead of running or asking. */
  private async *interruptRemaining(): AsyncGenerator<ToolExecutionEvent, void, undefined> {
    for (const record of this.records.slice(this.cursor)) {
      const response = this.finish(record, ToolResultState.INTERRUPTED, INTERRUPTED_MESSAGE);
      yield { type: "tool_result_end", toolCallId: record.call.id, name: record.call.name, response };
    }
    this.cursor = this.records.length;
  }

  /** The next run of consecutive concurrency-safe calls, or one unsafe call. Unknown tools count as safe. */
  private nextBatch(): CallRecord[] {
    const first = this.records[this.cursor]!;
    if (!this.isConcurrencySafe(first)) {
      this.cursor++;
      return [first];
    }
    const batch: CallRecord[] = [];
    while (this.cursor < this.records.length && this.isConcurrencySafe(this.records[this.cursor]!)) {
      batch.push(this.records[this.cursor++]!);
    }
    return batch;
  }

  private isConcurrencySafe(record: CallRecord): boolean {
    return this.toolkit.getTool(record.call.name)?.isConcurrencySafe ?? true;
  }

  private async *processBatch(batch: CallRecord[], parallel: boolean): AsyncGenerator<ToolExecutionEvent, void, undefined> {
    const evaluations = parallel ? await Promise.all(batch.map((record) => this.evaluate(record))) : [await this.evaluate(batch[0]!)];
    const allowed: CallRecord[] = [];
    const asking: ConfirmationRequest[] = [];
    for (const [index, evaluation] of evaluations.entries()) {
      const record = batch[index]!;
      if (evaluation.kind === "finished") yield evaluation.event;
      else if (evaluation.kind === "allow") allowed.push(record);
      else if (parallel && (await this.coveredByShownSuggestion(record, evaluation.decision, asking))) this.held.push(record);
      else asking.push(this.ask(record, evaluation.decision));
    }
    yield* this.dispatch(allowed, parallel);
    if (asking.length > 0) yield { type: "require_user_confirm", toolCalls: asking };
  }

  /** Looks the call up, parses and validates its input, and asks the engine. */
  private async evaluate(record: CallRecord): Promise<Evaluation> {
    const { call } = record;
    const found = this.toolkit.resolve(call.name);
    if ("error" in found) return this.failed(record, found.error);
    record.tool = found.tool;
    const input = parseInput(call);
    if (input instanceof ToolCallError) return this.failed(record, input);
    const problems = this.toolkit.validateInput(found.tool, input);
    if (problems) return this.failed(record, invalidInput(call.name, problems));
    record.input = input;
    let decision: PermissionResult;
    try {
      decision = await this.engine.checkPermission(found.tool, input);
    } catch (error) {
      return this.failed(
        record,
        asAgentError(
          error,
          "PERMISSION_CHECK_FAILED",
          `PermissionCheckError: checking permission for "${call.name}" failed: ${describeError(error)}`,
        ),
      );
    }
    if (decision.behavior === PermissionBehavior.ALLOW) return { kind: "allow" };
    if (decision.behavior === PermissionBehavior.DENY) {
      const response = this.finish(record, ToolResultState.DENIED, decision.message);
      return { kind: "finished", event: { type: "tool_denied", toolCallId: call.id, name: call.name, response, decision, byUser: false } };
    }
    return { kind: "ask", decision };
  }

  /** In a parallel batch, a plain ASK already covered by a suggestion shown in it waits for that answer. */
  private async coveredByShownSuggestion(record: CallRecord, decision: PermissionResult, shown: ConfirmationRequest[]): Promise<boolean> {
    if (decision.bypassImmune) return false;
    for (const request of shown) {
      for (const rule of request.suggestions) {
        if (rule.toolName !== record.call.name) continue;
        const context = { ...this.engine.context, ruleBehavior: PermissionBehavior.ALLOW, ruleToolName: rule.toolName };
        if (!rule.ruleContent || (await record.tool!.matchRule(rule.ruleContent, record.input!, context))) return true;
      }
    }
    return false;
  }

  private ask(record: CallRecord, decision: PermissionResult): ConfirmationRequest {
    record.state = ToolCallState.ASKING;
    record.request = {
      id: record.call.id,
      name: record.call.name,
      input: record.input!,
      message: decision.message,
      reason: decision.reason,
      suggestions: decision.suggestions,
      bypassImmune: decision.bypassImmune,
    };
    return record.request;
  }

  /** Allowed calls: external ones are handed out, the others run (in parallel when the batch allows). */
  private async *dispatch(records: CallRecord[], parallel: boolean): AsyncGenerator<ToolExecutionEvent, void, undefined> {
    const external = records.filter((record) => record.tool!.isExternalTool);
    const local = records.filter((record) => !record.tool!.isExternalTool);
    if (parallel) yield* mergeStreams(local.map((record) => this.execute(record)));
    else for (const record of local) yield* this.execute(record);
    for (const record of external) record.state = ToolCallState.SUBMITTED;
    if (external.length > 0) {
      yield {
        type: "require_external_execution",
        toolCalls: external.map((record) => ({ id: record.call.id, name: record.call.name, input: record.input! })),
      };
    }
  }

  private async *execute(record: CallRecord): AsyncGenerator<ToolExecutionEvent, void, undefined> {
    const { id, name } = record.call;
    record.state = ToolCallState.ALLOWED;
    yield { type: "tool_result_start", toolCallId: id, name };
    const stream = this.toolkit.runTool(record.tool!, id, record.input!, this.signal);
    for (;;) {
      const step = await stream.next();
      if (step.done) {
        record.response = step.value;
        break;
      }
      yield { type: "tool_result_chunk", toolCallId: id, name, chunk: step.value };
    }
    record.state = ToolCallState.FINISHED;
    yield { type: "tool_result_end", toolCallId: id, name, response: record.response };
  }

  private async *applyConfirmations(results: ConfirmResult[]): AsyncGenerator<ToolExecutionEvent, void, undefined> {
    const records = results.map((result) => this.expect(result.toolCallId, ToolCallState.ASKING, "confirmation"));
    const allowed: CallRecord[] = [];
    for (const [index, result] of results.entries()) {
      const record = records[index]!;
      const { id, name } = record.call;
      if (!result.confirmed) {
        this.engine.recordAnswer(record.tool!, record.input!, { allowed: false, answeredBy: "user" });
        const response = this.finish(record, ToolResultState.DENIED, USER_DENIED(name));
        yield { type: "tool_denied", toolCallId: id, name, response, byUser: true };
        continue;
      }
      const problem = this.acceptAnswer(record, result);
      if (problem) {
        const response = this.finish(record, ToolResultState.ERROR, problem.message);
        yield { type: "tool_error", toolCallId: id, name, response, error: problem };
        continue;
      }
      record.state = ToolCallState.ALLOWED;
      allowed.push(record);
    }
    yield* this.dispatch(
      allowed,
      allowed.every((record) => record.tool!.isConcurrencySafe),
    );
  }

  /** Remembers the confirmed call's rules and takes the user's edited input; an error if either is bad. */
  private acceptAnswer(record: CallRecord, result: ConfirmResult): AgentToolsError | undefined {
    try {
      const rules = (result.rules ?? []).map((rule) =>
        toPermissionRule(
          rule,
          typeof rule === "string" ? PermissionBehavior.ALLOW : (rule.behavior ?? PermissionBehavior.ALLOW),
          "session",
          "the user's confirmation",
        ),
      );
      if (result.input !== undefined) {
        const problems = this.toolkit.validateInput(record.tool!, result.input);
        if (problems) return invalidInput(record.call.name, problems);
        record.input = result.input;
      }
      this.engine.recordAnswer(record.tool!, record.input!, { allowed: true, answeredBy: "user", remembered: rules });
      for (const rule of rules) this.engine.addRule(rule);
      return undefined;
    } catch (error) {
      return asAgentError(error, "INVALID_CONFIRMATION", describeError(error));
    }
  }

  private async *applyExternalResults(results: ExternalExecutionResult[]): AsyncGenerator<ToolExecutionEvent, void, undefined> {
    const records = results.map((result) => this.expect(result.toolCallId, ToolCallState.SUBMITTED, "an external result"));
    for (const [index, result] of results.entries()) {
      const record = records[index]!;
      const content = typeof result.output === "string" ? [{ type: "text" as const, text: result.output }] : result.output;
      const chunk = new ToolChunk({ content, state: result.state ?? ToolResultState.SUCCESS, metadata: result.metadata ?? {} });
      record.response = new ToolResponse(record.call.id).append(chunk);
      record.state = ToolCallState.FINISHED;
      yield { type: "tool_result_end", toolCallId: record.call.id, name: record.call.name, response: record.response };
    }
  }

  private expect(toolCallId: string, state: ToolCallState, what: string): CallRecord {
    const record = this.records.find((candidate) => candidate.call.id === toolCallId);
    if (!record || record.state !== state) {
      throw new ToolkitError(
        "EXECUTOR_UNEXPECTED_ANSWER",
        `Tool call "${toolCallId}" is not waiting for ${what} (it is ${record ? record.state : "unknown"}). ` +
          `Answer only the calls listed in the executor's require_* events.`,
      );
    }
    return record;
  }

  private failed(record: CallRecord, error: AgentToolsError): Evaluation {
    const response = this.finish(record, ToolResultState.ERROR, error.message);
    return { kind: "finished", event: { type: "tool_error", toolCallId: record.call.id, name: record.call.name, response, error } };
  }

  private finish(record: CallRecord, state: ToolResultState, text: string): ToolResponse {
    record.state = ToolCallState.FINISHED;
    record.response = new ToolResponse(record.call.id).append(new ToolChunk({ content: [{ type: "text", text }], state }));
    return record.response;
  }
}

function parseInput(call: ToolCall): Record<string, unknown> | ToolCallError {
  let input: unknown = call.input;
  if (typeof input === "string") {
    try {
      input = input.trim() === "" ? {} : JSON.parse(input);
    } catch (error) {
      return new ToolCallError(
        "TOOL_CALL_INPUT_NOT_JSON",
        `InvalidInputError: the arguments of tool "${call.name}" are not valid JSON (${(error as Error).message}). Send a JSON object.`,
      );
    }
  }
  if (input === null || typeof input !== "object" || Array.isArray(input)) {
    return new ToolCallError(
      "TOOL_CALL_INPUT_NOT_OBJECT",
      `InvalidInputError: the arguments of tool "${call.name}" must be a JSON object.`,
    );
  }
  return input as Record<string, unknown>;
}

function invalidInput(name: string, problems: string): ToolCallError {
  return new ToolCallError(
    "TOOL_CALL_INPUT_INVALID",
    `InvalidInputError: the input of tool "${name}" does not match its schema: ${problems}.`,
  );
}

function asAgentError(error: unknown, code: ToolCallErrorCode, message: string): AgentToolsError {
  return error instanceof AgentToolsError ? error : new ToolCallError(code, message);
}
