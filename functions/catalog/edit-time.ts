/**
 * The `updated_at` of an edit: now, or just after `previous` when the clock is behind it, so the
 * latest pointer (ordered by version, then edit time) only ever moves to newer edits.
 */
export function laterTimestamp(previous: string): string {
  const now = Date.now();
  const after = Date.parse(previous) + 1;
  return new Date(Number.isNaN(after) || now >= after ? now : after).toISOString();
}
