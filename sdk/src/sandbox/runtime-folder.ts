import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ExitCleanup } from "./exit-cleanup.js";

let folder: string | undefined;
const cleanup = new ExitCleanup<string>((dir) => rmSync(dir, { recursive: true, force: true }));

/**
 * A folder private to this agent process (created with `mkdtemp`: a fresh name, mode 0700, so no
 * other user can have prepared it or read it), for the files its sandboxes are started with.
 * Removed when the process exits.
 */
export function runtimeFolder(): string {
  if (folder === undefined) {
    folder = mkdtempSync(join(tmpdir(), `agent-tools-${process.getuid?.() ?? "user"}-`));
    cleanup.add(folder);
  }
  return folder;
}
