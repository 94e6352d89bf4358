/** Thrown into a stream's consumer when the signal aborts; the stream itself is asked to stop. */
export class StreamAbortedError extends Error {
  constructor() {
    super("The tool call was interrupted.");
    this.name = "StreamAbortedError";
  }
}

/**
 * Yields from `stream` until `signal` aborts, then stops waiting for it (a stuck tool cannot hold
 * the agent) and asks it to finish via `return()`.
 */
export async function* abortable<T>(stream: AsyncIterable<T>, signal: AbortSignal | undefined): AsyncGenerator<T, void, undefined> {
  if (!signal) {
    yield* stream;
    return;
  }
  const iterator = stream[Symbol.asyncIterator]();
  let onAbort: () => void = () => {};
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(new StreamAbortedError());
    signal.addEventListener("abort", onAbort, { once: true });
  });
  aborted.catch(() => {});
  try {
    for (;;) {
      if (signal.aborted) throw new StreamAbortedError();
      const result = await Promise.race([iterator.next(), aborted]);
      if (result.done) return;
      yield result.value;
    }
  } catch (error) {
    if (error instanceof StreamAbortedError) void iterator.return?.();
    throw error;
  } finally {
    signal.removeEventListener("abort", onAbort);
  }
}
