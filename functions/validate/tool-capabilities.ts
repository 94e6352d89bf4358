import { readToolCapabilities, toolCapabilityProblems, type ToolCapabilities } from "@agent-tools/sdk/capabilities";
import { HttpProblem } from "../http-problem.js";
import { PROCESSING_FAILED } from "./archive-rejection.js";

/**
 * The capability manifest of a spec (`tool_capabilities`, docs/sandbox.md), normalised; undefined
 * when the spec declares none. A malformed one is a 422 listing every problem, so an author
 * never publishes a manifest the SDK would refuse.
 */
export function capabilitiesOf(spec: Record<string, unknown>): ToolCapabilities | undefined {
  const value = spec.tool_capabilities;
  const problems = toolCapabilityProblems(value);
  if (problems.length > 0) {
    throw new HttpProblem(
      422,
      PROCESSING_FAILED,
      `spec.json has an invalid capability manifest: ${problems.join("; ")}. See docs/sandbox.md for the format.`,
    );
  }
  return value === undefined || value === null ? undefined : readToolCapabilities(value);
}
