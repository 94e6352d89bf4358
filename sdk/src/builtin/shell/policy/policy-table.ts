import type { ProgramSpec } from "./command-spec.js";
import { READ_ONLY_SPECS } from "./spec-registry.js";

/**
 * The command table of docs/command-policy.md, generated from the specs so the docs cannot drift
 * from the policy (a test compares them; `agent-tools policy table` prints it).
 */
export function commandPolicyTable(specs: readonly ProgramSpec[] = READ_ONLY_SPECS): string {
  const rows = specs.flatMap((spec) => specRows(spec, spec.name));
  return [
    "| command | read-only when | options accepted | refused options (why) |",
    "|---|---|---:|---|",
    ...rows.map((row) => `| \`${row.command}\` | ${escapeCell(row.summary)} | ${row.accepted} | ${escapeCell(row.forbidden)} |`),
    "",
  ].join("\n");
}

interface Row {
  command: string;
  summary: string;
  accepted: string;
  forbidden: string;
}

function specRows(spec: ProgramSpec, command: string): Row[] {
  const aliases = spec.aliases && spec.aliases.length > 0 ? ` (also ${spec.aliases.join(", ")})` : "";
  const forbidden = new Map<string, string[]>();
  for (const option of spec.forbidden ?? []) forbidden.set(option.reason, [...(forbidden.get(option.reason) ?? []), ...option.names]);
  const row: Row = {
    command: command + aliases,
    summary: spec.anyArguments ? `${spec.summary}; any arguments` : spec.summary,
    accepted: spec.anyArguments ? "any" : String((spec.options ?? []).length),
    forbidden: [...forbidden].map(([reason, names]) => `${names.map((name) => `\`${name}\``).join(" ")}: ${reason}`).join("; ") || "—",
  };
  const subcommands = (spec.subcommands ?? []).flatMap((subcommand) => specRows(subcommand, `${command} ${subcommand.name}`));
  return [row, ...subcommands];
}

function escapeCell(text: string): string {
  return text.replace(/\|/g, "\\|");
}
