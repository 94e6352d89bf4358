import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import type { Command } from "commander";
import { parseDecisionLog, type DecisionRecord } from "../../permission/decision-log.js";
import { loadPermissionSettings } from "../../permission/settings/load-permission-settings.js";
import { expandHome } from "../../permission/working-directories.js";
import { printJson, withJsonOption, type CliContext } from "../cli-context.js";
import { UsageError } from "../report-error.js";

/** `--since 30m`: how long each unit lasts, in milliseconds. */
const UNIT_MS: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/**
 * `agent-tools permissions log [--json] [--since <when>] [--file <path>]` (docs/cli.md#permissions):
 * what the engine decided and who answered its questions, oldest first, from the decision log the
 * settings name (`permissions.decisionLog`, docs/permissions.md#decision-log) or `--file`.
 */
export function registerDecisionLogCommand(permissions: Command, { io }: CliContext): void {
  withJsonOption(
    permissions
      .command("log")
      .description("print the decision log: every decision and answer, with the rule and settings file behind it")
      .option("--since <when>", "only records from then on: an ISO time (2026-12-01T10:00Z) or an age (30m, 12h, 7d)")
      .option("--file <path>", "the log to read (default: permissions.decisionLog of the settings)"),
  ).action(async (options: { since?: string; file?: string; json?: boolean }) => {
    const since = options.since === undefined ? undefined : sinceTime(options.since, Date.now());
    const path = options.file === undefined ? configuredLog(io.cwd) : resolve(io.cwd, expandHome(options.file));
    const { records, unreadable } = parseDecisionLog(await readLog(path));
    const shown = since === undefined ? records : records.filter((record) => Date.parse(record.time) >= since);
    if (unreadable > 0) io.err(`agent-tools: ${unreadable} line(s) of ${path} are not decision records; skipped.\n`);
    if (options.json) return printJson(io, shown);
    if (shown.length === 0) io.out(`No decisions in ${path}${options.since === undefined ? "" : ` since ${options.since}`}.\n`);
    for (const record of shown) io.out(`${recordLine(record)}\n`);
  });
}

/** The log the settings of this folder name, or a usage error saying how to name one. */
function configuredLog(cwd: string): string {
  const { decisionLog } = loadPermissionSettings({ projectDir: cwd });
  if (decisionLog !== undefined) return decisionLog;
  throw new UsageError(
    'no decision log is configured: add "decisionLog": "~/.agent-tools/decisions.jsonl" ' +
      'to "permissions" in ~/.agent-tools/settings.json, or pass --file <path>.',
  );
}

async function readLog(path: string): Promise<string> {
  try {
    return await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return "";
    throw error;
  }
}

/** `--since` as epoch milliseconds: an age before `now` (`90s`, `30m`, `12h`, `7d`) or an ISO time. */
export function sinceTime(value: string, now: number): number {
  const age = /^(\d+)([smhd])$/.exec(value);
  if (age) return now - Number(age[1]) * UNIT_MS[age[2]!]!;
  const time = /^\d{4}-\d\d-\d\d/.test(value) ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(time))
    throw new UsageError(`--since must be an ISO time such as 2026-12-01T10:00Z or an age such as 30m, 12h, 7d; got "${value}".`);
  return time;
}

/** One record as a line: when, what, which tool with which input, and why (rule and file, or who answered). */
function recordLine(record: DecisionRecord): string {
  const verdict = record.event === "answer" ? `answered ${record.outcome} by ${record.answered_by ?? "?"}` : record.outcome;
  const origin = record.origin === undefined || record.origin.endsWith(`:${record.tool}`) ? "" : ` [${record.origin}]`;
  const why =
    record.rule !== undefined
      ? `rule ${record.rule} (${record.rule_source ?? "?"}${record.settings_file === undefined ? "" : `, ${record.settings_file}`})`
      : (record.reason ?? "");
  const remembered = record.remembered === undefined ? "" : `; remembered ${record.remembered.join(", ")}`;
  return (
    `${record.time}  ${verdict.padEnd(5)}  ${record.mode}  ${record.tool}${origin} ` +
    `${JSON.stringify(record.input)}${why === "" ? "" : `  ${why}`}${remembered}`
  );
}
