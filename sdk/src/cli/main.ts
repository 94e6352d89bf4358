#!/usr/bin/env node
/** The `agent-tools` executable (package.json `bin`). */
import { runCli } from "./run-cli.js";

process.exitCode = await runCli(process.argv.slice(2));
