import { UsageError } from "../report-error.js";

/** `id` or `id@version` as typed on the command line. */
export function parseReference(reference: string): { toolId: string; version?: string } {
  const at = reference.lastIndexOf("@");
  if (at <= 0) return { toolId: reference };
  const version = reference.slice(at + 1);
  if (version === "") throw new UsageError(`"${reference}" ends with "@": write id@version, e.g. text-stats@1.0.0, or just the id.`);
  return { toolId: reference.slice(0, at), version };
}

/** `id@version`, required (commands that act on one version). */
export function parseVersionReference(reference: string): { toolId: string; version: string } {
  const { toolId, version } = parseReference(reference);
  if (version === undefined) throw new UsageError(`"${reference}" names no version: write id@version, e.g. text-stats@1.0.0.`);
  return { toolId, version };
}
