import { ToolEnvironmentError } from "../runtime-errors.js";
import type { ProcessRun } from "../run-process.js";

/** What a failed install step is explained with. */
export interface InstallFailureContext {
  toolId: string;
  /** "creating the virtual environment", "installing code/requirements.txt". */
  step: string;
  timeoutMs: number;
  /** The hosts the install could reach (empty: none). */
  hosts: string[];
  sandboxed: boolean;
}

/** Characters of pip's own output quoted in the error. */
const OUTPUT_TAIL = 3000;
/** The lines agent_tools_pip.py adds to pip's output after a failure. */
const NOTE = /^agent-tools: (\S+) (.*)$/gm;
const PROXY_REFUSAL = /network:(\S+?) not granted/;

/**
 * The error of a failed install step: which step, why pip failed when the installer's notes say
 * (a source build refused, a host not granted), pip's last output, and how to fix it.
 */
export function installFailure(run: ProcessRun, context: InstallFailureContext): ToolEnvironmentError {
  const how = run.timedOut ? `timed out after ${context.timeoutMs} ms` : `exit ${run.exitCode ?? run.signal}`;
  const output = `${run.stderr}\n${run.stdout}`;
  const reasons = new Set<string>();
  for (const [, kind, detail] of output.matchAll(NOTE)) {
    const reason = explainNote(kind!, detail!, context);
    if (reason !== undefined) reasons.add(reason);
  }
  const refused = PROXY_REFUSAL.exec(output)?.[1];
  if (refused !== undefined) reasons.add(hostRefused(refused, context));
  const tail = (run.stderr.trim() || run.stdout.trim()).replace(NOTE, "").trim().slice(-OUTPUT_TAIL);
  const fix = run.timedOut
    ? "Raise installTimeoutMs in new AgentTools() if the install needs longer."
    : reasons.size > 0
      ? ""
      : "Check the requirements and the pipArgs option (index URL, --find-links for offline wheels). The machine's " +
        "pip configuration (pip.conf, PIP_* variables) is not read: pass what you need as pipArgs or pipEnv.";
  const message = [`${context.step} failed (${how}).`, ...reasons, ...(tail === "" ? [] : [`Its last output:\n${tail}`])].join(" ");
  return new ToolEnvironmentError(context.toolId, fix === "" ? message : `${message}\n${fix}`);
}

function explainNote(kind: string, detail: string, context: InstallFailureContext): string | undefined {
  // Archive links carry their digest as a fragment (`#sha256=…`): noise in a message.
  const [first = "", second = ""] = detail.split(" ").map((part) => part.replace(/#.*/, ""));
  const allow =
    `Pass allowSourceBuilds: true to new AgentTools() to build ` +
    `it${context.sandboxed ? " (inside the install sandbox)" : ""}, or install a wheel instead.`;
  if (kind === "source-build-refused") {
    const what = second === "-" ? first : `${second} (${first})`;
    return `${what} would be built from source, which runs its own build code at install time; source builds are off. ${allow}`;
  }
  if (kind === "source-only") return `${first} is published only as source where pip looked (${second}); source builds are off. ${allow}`;
  // A 404 is an index saying it does not have the project: pip looks elsewhere, as it should.
  if (kind === "fetch-failed" && !PROXY_REFUSAL.test(detail) && !/\b404\b/.test(detail)) return `pip could not fetch ${detail}.`;
  if (kind === "unsupported-pip") return `${detail}.`;
  return undefined;
}

function hostRefused(host: string, context: InstallFailureContext): string {
  const reachable =
    context.hosts.length > 0
      ? `only the configured package index (${context.hosts.join(", ")}) is reachable`
      : "no host is reachable (--no-index)";
  return (
    `pip was refused ${host}: ${reachable}, and a requirements file cannot add an index. If you ` +
    `trust ${host}, name it in pipArgs (--index-url, --extra-index-url or --find-links) or pipHosts.`
  );
}
