import { Option } from "commander";

/** `--token`, read from `AGENT_TOOLS_TOKEN` when not given (write commands only). */
export function tokenOption(): Option {
  return new Option("--token <token>", "write token").env("AGENT_TOOLS_TOKEN");
}
