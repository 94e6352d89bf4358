import { runCli } from "../../../sdk/src/cli/run-cli.js";

export interface CliRun {
  status: number;
  out: string;
  err: string;
}

/** Runs the `agent-tools` CLI in process, in `cwd`; returns its exit status and what it printed on each stream. */
export async function runCliCaptured(args: string[], cwd: string): Promise<CliRun> {
  let out = "";
  let err = "";
  const status = await runCli(args, { out: (text) => void (out += text), err: (text) => void (err += text), cwd });
  return { status, out, err };
}
