// Runs the hostile output scenarios as the current user and prints the report as JSON (see hostile-output-scenarios.ts).
import { runHostileOutputScenarios } from "./hostile-output-scenarios.js";

process.stdout.write(JSON.stringify(await runHostileOutputScenarios()));
