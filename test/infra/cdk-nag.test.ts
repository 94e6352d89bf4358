/**
 * cdk-nag's AwsSolutions checks over the stack as deployed by default, without CloudFront, and with
 * every option on: no finding is left unfixed or unacknowledged, and each acknowledgment says why
 * (infra/acknowledge-finding.ts).
 */
import { App, Validations } from "aws-cdk-lib";
import { AwsSolutionsChecks } from "cdk-nag";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createRegistryApp } from "../../infra/registry-app.js";

interface PluginReport {
  pluginName: string;
  conclusion: string;
  violations: { ruleName: string; violatingConstructs: { constructPath: string }[] }[];
  suppressedViolations: { ruleName: string; acknowledgedId: string; reason: string }[];
}

function nagReport(context: Record<string, string>): PluginReport {
  const outdir = mkdtempSync(join(tmpdir(), "agent-tools-nag-"));
  try {
    const app = new App({ outdir, context: { "aws:cdk:bundling-stacks": [], ...context } });
    createRegistryApp(app);
    Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
    let failure: unknown;
    try {
      app.synth();
    } catch (error) {
      failure = error; // the report says what failed
    }
    const report = JSON.parse(readFileSync(join(outdir, "validation-report.json"), "utf8")) as { pluginReports: PluginReport[] };
    const nag = report.pluginReports.find((plugin) => plugin.pluginName === "AwsSolutions")!;
    const open = nag.violations.map(
      (violation) => `${violation.ruleName} at ${violation.violatingConstructs.map((c) => c.constructPath).join(", ")}`,
    );
    expect(open, String(failure ?? "")).toEqual([]);
    return nag;
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}

/** Each synthesis runs every AwsSolutions rule over every resource: seconds each, more on a loaded machine. */
const SYNTH_TIMEOUT_MS = 120_000;

const FULL = {
  alarmEmail: "ops@example.com",
  domainName: "tools.example.com",
  certificateArn: "arn:aws:acm:us-east-1:123456789012:certificate/11111111-2222-3333-4444-555555555555",
  waf: "true",
  cdnAccessLogs: "true",
};

describe("cdk-nag AwsSolutions", () => {
  it(
    "finds nothing unacknowledged in the default stack, and every acknowledgment has its reason",
    () => {
      const report = nagReport({});
      expect(report.conclusion).toBe("success");
      expect(report.suppressedViolations.length).toBeGreaterThan(0);
      for (const suppressed of report.suppressedViolations) expect(suppressed.reason.length, suppressed.acknowledgedId).toBeGreaterThan(40);
      // With the default certificate and no WAF, those two findings are acknowledged, not fixed.
      expect(report.suppressedViolations.map((entry) => entry.ruleName)).toEqual(
        expect.arrayContaining(["AwsSolutions-CFR2", "AwsSolutions-CFR4"]),
      );
    },
    SYNTH_TIMEOUT_MS,
  );

  it(
    "finds nothing without CloudFront, nor with every option on (where WAF and the custom domain's TLS 1.2 fix CFR2 and CFR4)",
    () => {
      nagReport({ cdn: "false" });
      const saved = process.env.AWS_REGION;
      process.env.AWS_REGION = "eu-west-1";
      try {
        const full = nagReport(FULL);
        expect(full.suppressedViolations.map((entry) => entry.ruleName)).not.toContain("AwsSolutions-CFR2");
        expect(full.suppressedViolations.map((entry) => entry.ruleName)).not.toContain("AwsSolutions-CFR4");
      } finally {
        if (saved === undefined) delete process.env.AWS_REGION;
        else process.env.AWS_REGION = saved;
      }
    },
    SYNTH_TIMEOUT_MS,
  );
});
