import type { Context } from "hono";
import semver from "semver";
import { idProblem } from "../validate/tool-id.js";
import { MAX_VERSION_LENGTH } from "../validate/tool-version.js";
import { HttpProblem } from "../http-problem.js";

/**
 * The `{id}` path segment, checked against the tool-id rule before any storage call: an id that
 * no upload could have created (`#catalog`, 2,000 characters, `a/b`) is 400, never a storage key.
 */
export function toolIdParam(c: Context, name = "id"): string {
  const id = c.req.param(name) ?? "";
  const problem = idProblem(id);
  if (problem !== undefined) {
    throw new HttpProblem(
      400,
      "Invalid tool id",
      `${JSON.stringify(id.length > 60 ? `${id.slice(0, 60)}…` : id)} is not a tool id: ${problem}. ` +
        `Tool ids are 1-128 letters, digits, ".", "_" or "-", starting with a letter or digit.`,
    );
  }
  return id;
}

/** Whether `value` is a version as the registry stores it: normalised semver of at most MAX_VERSION_LENGTH characters. */
export function isVersion(value: string): boolean {
  return value.length <= MAX_VERSION_LENGTH && semver.valid(value) === value;
}

/** The `{version}` path segment as normalised semver (`v1.2.0` → `1.2.0`); 400 when it is not semver. */
export function versionParam(c: Context, name = "version"): string {
  const raw = c.req.param(name) ?? "";
  const version = raw.length <= MAX_VERSION_LENGTH ? semver.valid(raw) : null;
  if (version === null) {
    throw new HttpProblem(
      400,
      "Invalid version",
      `${JSON.stringify(raw.length > 60 ? `${raw.slice(0, 60)}…` : raw)} is not a semantic version of at most ` +
        `${MAX_VERSION_LENGTH} characters, e.g. 1.0.0 or 2.1.0-beta.1; list a tool's versions with GET /tools/{id}/versions.`,
    );
  }
  return version;
}
