import { randomUUID } from "node:crypto";

/** The state a tool result (or one chunk of it) is in. RUNNING marks an intermediate chunk. */
export const ToolResultState = {
  SUCCESS: "success",
  ERROR: "error",
  INTERRUPTED: "interrupted",
  DENIED: "denied",
  RUNNING: "running",
} as const;
export type ToolResultState = (typeof ToolResultState)[keyof typeof ToolResultState];

/** Text output. Blocks sharing an `id` across chunks are one block being streamed. */
export interface TextBlock {
  type: "text";
  text: string;
  id?: string | undefined;
}

export interface Base64Source {
  type: "base64";
  mediaType: string;
  data: string;
}

export interface UrlSource {
  type: "url";
  url: string;
  mediaType?: string | undefined;
}

/** Binary output (images, PDFs, archives): inline base64 or a URL. */
export interface DataBlock {
  type: "data";
  source: Base64Source | UrlSource;
  name?: string | undefined;
  id?: string | undefined;
}

export type ToolContentBlock = TextBlock | DataBlock;

export interface ToolChunkInit {
  content?: ToolContentBlock[];
  state?: ToolResultState;
  isLast?: boolean;
  metadata?: Record<string, unknown>;
  id?: string;
}

/** One piece of a tool's output; a non-streaming tool returns exactly one. */
export class ToolChunk {
  content: ToolContentBlock[];
  state: ToolResultState;
  isLast: boolean;
  metadata: Record<string, unknown>;
  id: string;

  constructor(init: ToolChunkInit = {}) {
    this.content = init.content ?? [];
    this.state = init.state ?? ToolResultState.RUNNING;
    this.isLast = init.isLast ?? true;
    this.metadata = init.metadata ?? {};
    this.id = init.id ?? randomUUID();
  }

  static text(text: string, init: Omit<ToolChunkInit, "content"> = {}): ToolChunk {
    return new ToolChunk({ ...init, content: [{ type: "text", text }] });
  }

  static error(message: string, init: Omit<ToolChunkInit, "content" | "state"> = {}): ToolChunk {
    return new ToolChunk({ ...init, content: [{ type: "text", text: message }], state: ToolResultState.ERROR });
  }
}

export function isToolChunk(value: unknown): value is ToolChunk {
  return value instanceof ToolChunk;
}
