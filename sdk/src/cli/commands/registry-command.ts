import { type Command, InvalidArgumentError } from "commander";
import { AgentToolsError } from "../../errors.js";
import { registryRequest } from "../../publish/registry-request.js";
import type { CliContext } from "../cli-context.js";
import { smokeRegistry } from "./registry-smoke.js";
import { tokenOption } from "./token-option.js";

/** What `POST /registry/doctor` answers (the registry formats `text` itself). */
interface DoctorAnswer {
  fix: boolean;
  findings: { kind: string; fixed: boolean }[];
  text: string;
}

/** Findings remain that this run did not repair: exit status 1, like any refused request. */
export class DoctorFindingsError extends AgentToolsError {
  constructor(open: number, fixRun: boolean) {
    super(
      "DOCTOR_FINDINGS",
      `${open} finding(s) remain${fixRun ? " that --fix cannot repair (see above)" : "; run again with --fix to repair them"}`,
    );
  }
}

/** A smoke check failed: exit status 1, like any refused request. */
export class SmokeFailedError extends AgentToolsError {
  constructor(failed: string[]) {
    super("SMOKE_FAILED", `the smoke check failed at: ${failed.join(", ")} (see above)`);
  }
}

/**
 * `agent-tools registry smoke`: checks a deployment end to end (health, an upload with a fresh
 * publisher token, fetch, search, listing, catalogue page, admin reads), then deletes its tool and
 * revokes its token (docs/deployment.md#smoke-test).
 *
 * `agent-tools registry doctor [--fix]`: checks a running registry's storage (unfinished publishes
 * and deletes, latest pointers, orphaned, missing or damaged archives, revision drift) and with
 * `--fix` repairs it, through the registry's `POST /registry/doctor`. Without a server, the same
 * checks run straight against storage: `npm run doctor -- --data-dir .data` (see docs/storage.md).
 */
export function registerRegistryCommand(program: Command, { io, registryUrl, writeToken }: CliContext): void {
  // program.command() (not new Command()) so the subcommands inherit exitOverride and the output streams.
  const registry = program.command("registry").description("operate a registry: check a deployment, check and repair its storage");
  registry
    .command("smoke")
    .description(
      "check a deployment end to end with a throwaway tool (admin token): upload, fetch, search, listing, catalogue, admin reads",
    )
    .addOption(tokenOption())
    .option("--wait <seconds>", "how long reads may lag the upload (default 30)", seconds)
    .option("--json", "print the steps as JSON")
    .action(async (options: { token?: string; wait?: number; json?: boolean }) => {
      const adminToken = writeToken(options.token);
      const steps = await smokeRegistry({
        registryUrl: registryUrl(),
        adminToken,
        ...(options.wait === undefined ? {} : { waitMs: options.wait * 1000 }),
        ...(options.json
          ? {}
          : { onStep: (step) => io.out(`${step.ok ? "ok  " : "FAIL"}\t${step.name}\t${step.ms} ms\t${step.detail}\n`) }),
      });
      if (options.json) io.out(`${JSON.stringify(steps, null, 2)}\n`);
      const failed = steps.filter((step) => !step.ok).map((step) => step.name);
      if (failed.length > 0) throw new SmokeFailedError(failed);
    });
  registry
    .command("doctor")
    .description("check the registry's storage for what crashes leave behind; --fix repairs it")
    .addOption(tokenOption())
    .option("--fix", "repair what can be repaired")
    .option("--grace <seconds>", "leave objects and publishes younger than this alone (default 3600)", seconds)
    .option("--verify-archives", "read every referenced archive and check its sha256")
    .option("--json", "print the report as JSON")
    .action(async (options: { token?: string; fix?: boolean; grace?: number; verifyArchives?: boolean; json?: boolean }) => {
      const token = writeToken(options.token);
      const body = JSON.stringify({
        fix: options.fix ?? false,
        ...(options.grace === undefined ? {} : { graceSeconds: options.grace }),
        ...(options.verifyArchives ? { verifyArchives: true } : {}),
      });
      const answer = await registryRequest<DoctorAnswer>({ registryUrl: registryUrl(), token }, "POST", "/registry/doctor", body, {
        "content-type": "application/json",
      });
      if (options.json) {
        const { text: _text, ...report } = answer;
        io.out(`${JSON.stringify(report, null, 2)}\n`);
      } else io.out(answer.text);
      const open = answer.findings.filter((finding) => !finding.fixed).length;
      if (open > 0) throw new DoctorFindingsError(open, answer.fix);
    });
}

function seconds(value: string): number {
  const parsed = Number(value);
  if (!Number.isSafeInteger(parsed) || parsed < 0) throw new InvalidArgumentError("expected a whole number of seconds.");
  return parsed;
}
