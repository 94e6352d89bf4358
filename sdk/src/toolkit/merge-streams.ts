/** Interleaves several async streams, yielding each item as soon as its stream produces it. */
export async function* mergeStreams<T>(streams: readonly AsyncIterable<T>[]): AsyncGenerator<T, void, undefined> {
  const iterators = streams.map((stream) => stream[Symbol.asyncIterator]());
  const pending = new Map<number, Promise<{ index: number; result: IteratorResult<T> }>>();
  const pull = (index: number) => {
    pending.set(
      index,
      iterators[index]!.next().then((result) => ({ index, result })),
    );
  };
  for (let index = 0; index < iterators.length; index++) pull(index);
  try {
    while (pending.size > 0) {
      const { index, result } = await Promise.race(pending.values());
      if (result.done) {
        pending.delete(index);
        continue;
      }
      pull(index);
      yield result.value;
    }
  } finally {
    for (const index of pending.keys()) void iterators[index]!.return?.();
  }
}
