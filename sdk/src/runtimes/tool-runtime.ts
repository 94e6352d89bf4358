/** What `AgentTools` needs from a runtime: run the tool, run a management command, release resources. */
export interface ToolRuntime {
  readonly kind: "python" | "binary" | "skill";
  execute(input: unknown): Promise<unknown>;
  executeCommand(command: string, data: unknown): Promise<unknown>;
  close(): Promise<void>;
}

/** Where a tool's output (prints, stderr) goes; the SDK also keeps a bounded tail for error messages. */
export type ToolOutputListener = (toolId: string, stream: "stdout" | "stderr", text: string) => void;
