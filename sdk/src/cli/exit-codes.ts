/** Exit statuses, so scripts can tell a refused request from a typo or an unreachable registry. */
export const EXIT = {
  ok: 0,
  /** The registry or the tool folder refused: validation, 401, 404, 409, 413, … */
  failed: 1,
  /** Wrong command line: unknown option, missing argument, no registry or token. */
  usage: 2,
  /** The registry (or storage) could not be reached. */
  unreachable: 3,
} as const;
