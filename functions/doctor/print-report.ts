import type { DoctorReport } from "./doctor-report.js";

/** The report as lines for a terminal: one per finding, then a summary. */
export function formatReport(report: DoctorReport): string {
  const lines = report.findings.map((finding) => {
    const subject =
      finding.toolId === undefined
        ? finding.sha256 === undefined
          ? ""
          : ` ${finding.sha256.slice(0, 12)}…`
        : ` ${finding.toolId}${finding.version === undefined ? "" : `@${finding.version}`}`;
    const status = finding.fixed ? "fixed" : report.fix ? "NOT FIXED" : "found";
    return `${status.padEnd(9)} ${finding.kind}${subject}: ${finding.detail}`;
  });
  const open = report.findings.filter((finding) => !finding.fixed).length;
  lines.push(
    `${report.toolsChecked} tools and ${report.archivesChecked} archive objects checked (grace ${report.graceSeconds} s): ` +
      (report.findings.length === 0
        ? "nothing to repair."
        : `${report.findings.length} finding(s), ${open} open${open > 0 && !report.fix ? " (run with --fix to repair)" : ""}.`),
  );
  return `${lines.join("\n")}\n`;
}
