/** Latency percentiles shared by every benchmark, so their tables mean the same thing. */

/** The sample at fraction `q` (0..1) of the sorted samples (lower index on ties); NaN with no samples. */
export function percentile(samples: readonly number[], q: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
}

/** p50 and p99 of `samples`. */
export function p50p99(samples: readonly number[]): { p50: number; p99: number } {
  return { p50: percentile(samples, 0.5), p99: percentile(samples, 0.99) };
}
