import { createProgram } from "./program.js";
import { processIo, type CliIo } from "./cli-io.js";
import { EXIT } from "./exit-codes.js";
import { reportError } from "./report-error.js";

/** Runs one `agent-tools` invocation (`args` without node and script) and returns its exit status. */
export async function runCli(args: string[], io: CliIo = processIo): Promise<number> {
  try {
    await createProgram(io).parseAsync(args, { from: "user" });
    return EXIT.ok;
  } catch (error) {
    // Read from the raw arguments: a failure may come before commander has parsed the option.
    return reportError(error, io, args.includes("--json"));
  }
}
