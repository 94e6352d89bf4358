import { MODES, type EntryResult, type HarnessMode, type PassResults } from "./harness-protocol.js";
import type { HostileEntry } from "./hostile-corpus.js";
import { HARM_KINDS, type HarmKind } from "./run-effects.js";

/** One mode's totals: runs it allowed, how many did harm, and the harmful runs by kind of harm. */
export interface ModeTotals {
  allowed: number;
  harmful: number;
  byKind: Record<HarmKind, number>;
}

export function modeTotals(results: readonly EntryResult[], mode: HarnessMode): ModeTotals {
  const allowed = results.filter((result) => result.decisions[mode].behavior === "allow");
  const byKind = Object.fromEntries(
    HARM_KINDS.map((kind) => [kind, allowed.filter((result) => result.effects[kind] !== undefined).length]),
  );
  return {
    allowed: allowed.length,
    harmful: allowed.filter((result) => Object.keys(result.effects).length > 0).length,
    byKind: byKind as Record<HarmKind, number>,
  };
}

/** The totals of a pass as the lines the closing note quotes. */
export function totalsReport(pass: PassResults): string {
  const lines = [
    `Enforcement harness, ${pass.pass} pass (uid ${pass.uid} inside the outer wall), ${pass.results.length} entries, ${pass.elapsedMs} ms:`,
  ];
  for (const mode of MODES) {
    const totals = modeTotals(pass.results, mode);
    const kinds = HARM_KINDS.filter((kind) => totals.byKind[kind] > 0).map((kind) => `${kind} ${totals.byKind[kind]}`);
    lines.push(
      `  ${mode}: a harmful effect in ${totals.harmful} of ${totals.allowed} ` +
        `allowed runs${kinds.length > 0 ? ` (${kinds.join(", ")})` : ""}`,
    );
  }
  return lines.join("\n");
}

/** What a failing entry prints: the entry, each mode's decision with its reason, and the effects seen. */
export function failureReport(entry: HostileEntry, result: EntryResult): string {
  const decisions = MODES.map((mode) => `  ${mode}: ${result.decisions[mode].behavior} (${result.decisions[mode].reason})`);
  const effects = Object.entries(result.effects).map(([kind, found]) => `  ${kind}: ${found.join("; ")}`);
  return [
    `${entry.class} entry attempting ${entry.harm}: ${result.command}`,
    "decisions:",
    ...decisions,
    `ran: exit ${result.exitCode}; effects:`,
    ...effects,
    "output (start):",
    result.output ?? "",
  ].join("\n");
}
