import { formatReport } from "../doctor/print-report.js";
import { runDoctor } from "../doctor/run-doctor.js";
import { isPlainObject } from "../entry/field-types.js";
import { readJsonBody } from "../http/read-json-body.js";
import { HttpProblem } from "../http-problem.js";
import { requireWriter } from "../trust/require-writer.js";
import type { RouteModule } from "../route-module.js";

const OPTIONS_HINT = 'Send an empty body or {"fix": true|false, "graceSeconds": <0-604800>, "verifyArchives": true|false}.';

/**
 * `POST /registry/doctor` (admin token): checks storage, and with `{"fix": true}` repairs it
 * (`agent-tools registry doctor [--fix]` calls this). Answers the report; see docs/storage.md.
 */
export const registryDoctorRoute: RouteModule = (app, deps) => {
  app.post("/registry/doctor", requireWriter(deps, { action: "doctor", adminOnly: true }), async (c) => {
    const body = (await readJsonBody(c)) ?? {};
    if (!isPlainObject(body)) throw invalid("the body is not a JSON object");
    const unknown = Object.keys(body).filter((key) => !["fix", "graceSeconds", "verifyArchives"].includes(key));
    if (unknown.length > 0) throw invalid(`unknown option ${unknown.join(", ")}`);
    const { fix, graceSeconds, verifyArchives } = body;
    if (fix !== undefined && typeof fix !== "boolean") throw invalid("fix must be true or false");
    if (verifyArchives !== undefined && typeof verifyArchives !== "boolean") throw invalid("verifyArchives must be true or false");
    if (
      graceSeconds !== undefined &&
      !(Number.isSafeInteger(graceSeconds) && (graceSeconds as number) >= 0 && (graceSeconds as number) <= 604_800)
    ) {
      throw invalid("graceSeconds must be an integer from 0 to 604800 (a week)");
    }
    const report = await runDoctor(deps, {
      ...(fix === undefined ? {} : { fix }),
      ...(graceSeconds === undefined ? {} : { graceSeconds: graceSeconds as number }),
      ...(verifyArchives === undefined ? {} : { verifyArchives }),
    });
    return c.json({ ...report, text: formatReport(report) });
  });
};

function invalid(problem: string): HttpProblem {
  return new HttpProblem(400, "Invalid doctor request", `${problem}. ${OPTIONS_HINT}`);
}
