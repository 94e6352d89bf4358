import semver from "semver";
import { HttpProblem } from "../http-problem.js";
import { describe, isPlainObject } from "../entry/field-types.js";
import { PROCESSING_FAILED } from "./archive-rejection.js";

export const DEFAULT_VERSION = "0.0.0";
/** Longest version accepted (a DynamoDB sort key, and a path segment). */
export const MAX_VERSION_LENGTH = 128;

/** `tool_metadata.version` as normalised semver (`v1.2.3` → `1.2.3`); none means `0.0.0`. */
export function versionOf(spec: Record<string, unknown>): string {
  const metadata = spec.tool_metadata;
  const version = isPlainObject(metadata) ? metadata.version : undefined;
  if (version === undefined || version === null) return DEFAULT_VERSION;
  if (typeof version !== "string") {
    fail(`tool_metadata.version must be a semver string such as "1.0.0", but it is ${describe(version)}.`);
  }
  const valid = semver.valid(version);
  if (valid === null) {
    fail(
      `tool_metadata.version ${JSON.stringify(version)} is not semantic versioning: use MAJOR.MINOR.PATCH, e.g. "1.0.0" or "2.1.0-beta.1".`,
    );
  }
  if (valid.length > MAX_VERSION_LENGTH)
    fail(`tool_metadata.version is ${valid.length} characters long; versions are limited to ${MAX_VERSION_LENGTH}.`);
  return valid;
}

function fail(detail: string): never {
  throw new HttpProblem(422, PROCESSING_FAILED, detail);
}
