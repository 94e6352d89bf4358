import { describe, expect, it } from "vitest";
import { FunctionTool, ToolChunk, ToolMiddlewareBase, ToolResponse, type ToolBase, type ToolNextHandler } from "@agent-tools/sdk";

async function collect(stream: AsyncIterable<ToolChunk>): Promise<ToolResponse> {
  const chunks: ToolChunk[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return ToolResponse.fromChunks("call-1", chunks);
}

class Recorder extends ToolMiddlewareBase {
  constructor(
    private readonly label: string,
    private readonly log: string[],
  ) {
    super();
  }

  async *onToolCall(tool: ToolBase<any>, input: Record<string, unknown>, next: ToolNextHandler): AsyncGenerator<ToolChunk> {
    this.log.push(`${this.label}:before:${tool.name}`);
    yield* next(input);
    this.log.push(`${this.label}:after`);
  }
}

describe("tool middleware", () => {
  it("runs as an onion: the first registered is the outermost", async () => {
    const log: string[] = [];
    const tool = new FunctionTool(
      () => {
        log.push("call");
        return "done";
      },
      { name: "echo", middlewares: [new Recorder("outer", log)] },
    ).use(new Recorder("inner", log));
    const response = await collect(tool.invoke({}));
    expect(log).toEqual(["outer:before:echo", "inner:before:echo", "call", "inner:after", "outer:after"]);
    expect(response.text).toBe("done");
  });

  it("rewrites the input the inner layers see and the chunks the caller sees", async () => {
    const tool = new FunctionTool(({ text }: { text: string }) => `got ${text}`, { name: "echo" });
    tool.use(async function* (_tool, input, next) {
      for await (const chunk of next({ ...input, text: String(input["text"]).toUpperCase() })) {
        yield ToolChunk.text(`[${(chunk.content[0] as { text: string }).text}]`);
      }
    });
    expect((await collect(tool.invoke({ text: "hi" }))).text).toBe("[got HI]");
  });

  it("short-circuits without calling the tool", async () => {
    let called = false;
    const tool = new FunctionTool(
      () => {
        called = true;
        return "real";
      },
      { name: "cached" },
    );
    tool.use(async function* () {
      yield ToolChunk.text("from cache");
    });
    expect((await collect(tool.invoke({}))).text).toBe("from cache");
    expect(called).toBe(false);
  });

  it("retries a failing tool until it succeeds", async () => {
    let attempts = 0;
    const tool = new FunctionTool(
      () => {
        attempts++;
        if (attempts < 3) throw new Error(`flaky ${attempts}`);
        return `ok after ${attempts}`;
      },
      { name: "flaky" },
    );
    const errors: string[] = [];
    tool.use(async function* (_tool, input, next) {
      for (let attempt = 1; ; attempt++) {
        try {
          yield* next(input);
          return;
        } catch (error) {
          errors.push((error as Error).message);
          if (attempt === 5) throw error;
        }
      }
    });
    expect((await collect(tool.invoke({}))).text).toBe("ok after 3");
    expect(errors).toEqual(["flaky 1", "flaky 2"]);
  });

  it("gives middlewares a stream even for a single-chunk tool", async () => {
    const tool = new FunctionTool(() => ToolChunk.text("one"), { name: "single" });
    const seen: number[] = [];
    tool.use(async function* (_tool, input, next) {
      let count = 0;
      for await (const chunk of next(input)) {
        count++;
        yield chunk;
      }
      seen.push(count);
    });
    await collect(tool.invoke({}));
    expect(seen).toEqual([1]);
  });
});
