/**
 * What a publisher token may be allowed to do (docs/design/publisher-trust.md). Routes name the
 * action they perform; a token lists the actions it grants.
 */
export const WRITE_ACTIONS = ["publish", "update", "deprecate", "yank", "delete"] as const;

export type WriteAction = (typeof WRITE_ACTIONS)[number];

export function isWriteAction(value: unknown): value is WriteAction {
  return typeof value === "string" && (WRITE_ACTIONS as readonly string[]).includes(value);
}
