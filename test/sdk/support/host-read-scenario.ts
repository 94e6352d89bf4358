/**
 * The SDK's host-side reads of a tool folder, from a process of its own (`node --import tsx
 * host-read-scenario.ts <root> <name>...`) so the host-reads test can run it as root and as an
 * unprivileged user. Prints one JSON object: per name, what `readFileBeneath` returned or why it refused.
 */
import { readFileBeneath, ToolFileError } from "../../../sdk/src/tool-files.js";

const [root, ...names] = process.argv.slice(2) as [string, ...string[]];
const outcomes: Record<string, string> = {};
for (const name of names) {
  try {
    const bytes = readFileBeneath(root, name, 4096);
    outcomes[name] = bytes === undefined ? "missing" : `read:${bytes.toString("utf8")}`;
  } catch (error) {
    outcomes[name] = error instanceof ToolFileError ? `refused:${error.message}` : `failed:${String(error)}`;
  }
}
process.stdout.write(JSON.stringify(outcomes));
