import { mkdtempSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Toolkit, ToolResponse } from "@agent-tools/sdk";

/**
 * A corpus file: one command per line, `#` comments, and JSON strings for lines that start and end
 * with `"` and parse (newlines, control and Unicode characters). The commands are only analysed.
 */
export function loadCorpus(name: string): string[] {
  const text = readFileSync(new URL(`./corpus/${name}`, import.meta.url), "utf8");
  return text
    .split("\n")
    .filter((line) => line.trim() !== "" && !line.startsWith("#"))
    .map((line) => {
      if (line.length > 1 && line.startsWith('"') && line.endsWith('"')) {
        try {
          return JSON.parse(line) as string;
        } catch {
          return line;
        }
      }
      return line;
    });
}

/** A fresh directory (real path, so symlinked /tmp does not confuse path checks) and its cleanup. */
export function temporaryDirectory(prefix: string): { path: string; remove: () => void } {
  const path = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

/** Runs one tool call directly (no permission check) and returns the accumulated response. */
export async function runTool(toolkit: Toolkit, name: string, input: Record<string, unknown>): Promise<ToolResponse> {
  const stream = toolkit.callTool({ id: `call-${name}`, name, input });
  for (;;) {
    const step = await stream.next();
    if (step.done) return step.value;
  }
}

/**
 * A TCP listener on the agent's 127.0.0.1 that answers `reached` to every connection: what a sandboxed
 * command must not reach without network.
 */
export async function loopbackListener(): Promise<{ port: number; close: () => void }> {
  const listener = createServer((socket) => socket.end("reached\n"));
  await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
  return { port: (listener.address() as { port: number }).port, close: () => listener.close() };
}
