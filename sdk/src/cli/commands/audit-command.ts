import { InvalidArgumentError, type Command } from "commander";
import { readAuditLog, type AuditEvent } from "../../publish/audit-log.js";
import { printJson, type CliContext } from "../cli-context.js";
import { withWriteOptions, writeRequest, type WriteOptions } from "./token-option.js";

/** `agent-tools audit`: the registry's audit log of writes, newest first (admin token). */
export function registerAuditCommand(program: Command, context: CliContext): void {
  const { io } = context;
  withWriteOptions(
    program
      .command("audit")
      .description("print the registry's audit log of writes, newest first (admin token)")
      .option("--limit <n>", "events per page, 1-100 (default 50)", pageSize)
      .option("--cursor <cursor>", "continue from a previous page's next_cursor")
      .option("--all", "follow next_cursor to the oldest event"),
  ).action(async (options: WriteOptions & { limit?: number; cursor?: string; all?: boolean }) => {
    const request = writeRequest(context, options);
    const events: AuditEvent[] = [];
    let cursor = options.cursor;
    let next: string | undefined;
    do {
      const page = await readAuditLog(request, {
        ...(options.limit === undefined ? {} : { limit: options.limit }),
        ...(cursor === undefined ? {} : { cursor }),
      });
      events.push(...page.events);
      next = page.next_cursor;
      cursor = next;
    } while (options.all && next !== undefined);
    if (options.json) return printJson(io, { events, ...(next === undefined ? {} : { next_cursor: next }) });
    for (const event of events) {
      const subject =
        event.tool_id === undefined ? (event.publisher ?? "") : `${event.tool_id}${event.version === undefined ? "" : `@${event.version}`}`;
      io.out(`${event.time}\t${event.token}\t${event.action}\t${subject}\t${event.outcome} ${event.status}\t${event.client}\n`);
    }
    if (next !== undefined) io.err(`More events: agent-tools audit --cursor ${next}\n`);
  });
}

function pageSize(value: string): number {
  const limit = Number(value);
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > 100) throw new InvalidArgumentError("expected a whole number from 1 to 100.");
  return limit;
}
