import { stat } from "node:fs/promises";
import { resolve } from "node:path";
import type { CliIo } from "../cli-io.js";
import { UsageError } from "../report-error.js";

/** A path from the command line, resolved against the working folder; a missing one is a usage error naming it. */
export async function existingPath(io: CliIo, path: string): Promise<{ path: string; isFile: boolean }> {
  const resolved = resolve(io.cwd, path);
  const info = await stat(resolved).catch(() => undefined);
  if (info === undefined) throw new UsageError(`no such file or folder: ${path} (looked in ${io.cwd}).`);
  return { path: resolved, isFile: info.isFile() };
}
