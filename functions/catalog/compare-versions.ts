import semver from "semver";

/** Semver order (a > b → positive); strings that are not semver rank below valid ones, by text. */
export function compareVersions(a: string, b: string): number {
  const validA = semver.valid(a);
  const validB = semver.valid(b);
  if (validA && validB) return semver.compare(validA, validB);
  if (validA) return 1;
  if (validB) return -1;
  return a < b ? -1 : a > b ? 1 : 0;
}
