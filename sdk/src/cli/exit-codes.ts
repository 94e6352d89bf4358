/** Exit statuses, so scripts can tell a refused request from a typo or an unreachable registry. */
export const EXIT = {
  ok: 0,
  /** The registry, the tool folder or the tool refused: validation, 401, 404, 409, 413, a tool error, … */
  failed: 1,
  /** Wrong command line: unknown option, missing argument, no registry or token. */
  usage: 2,
  /** The registry (or storage) could not be reached. */
  unreachable: 3,
} as const;

export const EXIT_CODES_HELP = `
Exit status:
  ${EXIT.ok}  success
  ${EXIT.failed}  refused or failed: invalid tool, 401, 404, 409, 413, a tool that raised
  ${EXIT.usage}  usage: unknown option or command, missing argument, bad --registry, no token
  ${EXIT.unreachable}  the registry or storage could not be reached

Environment: AGENT_TOOLS_REGISTRY (--registry), AGENT_TOOLS_TOKEN (--token), AGENT_TOOLS_CACHE_DIR.
With --json, results are JSON on stdout and errors one {"error": {...}} object on stderr.
`;
