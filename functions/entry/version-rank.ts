import semver from "semver";

const NUMBER_WIDTH = 20;
/** Sorts below every identifier character and above the end of the string. */
const IDENTIFIER_SEPARATOR = "!";

/**
 * A string whose plain (byte-wise) order is semver precedence, so DynamoDB can compare versions
 * in a ConditionExpression (see `pointerOrder`): the latest pointer then moves forward in one
 * conditional write, with no read first and no retry loop.
 *
 * - `MAJOR.MINOR.PATCH` as zero-padded numbers;
 * - then `~` for a release, or `-` and the prerelease identifiers (`-` < `~`, so `1.0.0-rc.1` <
 *   `1.0.0`): numeric ones as `0` + zero-padded digits, others as `1` + the identifier (numeric
 *   identifiers rank below alphanumeric ones), separated by `!`, which sorts below every
 *   identifier character, so a shorter list of equal prefix ranks lower;
 * - build metadata is ignored, as semver ignores it.
 *
 *   versionRank("1.2.3") < versionRank("1.10.0")       // true
 *   versionRank("1.0.0-alpha") < versionRank("1.0.0")  // true
 *
 * Versions are validated semver before they are stored; anything else ranks below every version.
 */
export function versionRank(version: string): string {
  const parsed = semver.parse(version);
  if (parsed === null) return "";
  const core = [parsed.major, parsed.minor, parsed.patch].map((part) => pad(String(part))).join(".");
  if (parsed.prerelease.length === 0) return `${core}~`;
  const identifiers = parsed.prerelease.map((identifier) =>
    typeof identifier === "number" || /^[0-9]+$/.test(identifier) ? `0${pad(String(identifier))}` : `1${identifier}`,
  );
  return `${core}-${identifiers.join(IDENTIFIER_SEPARATOR)}`;
}

function pad(digits: string): string {
  return digits.length >= NUMBER_WIDTH ? digits : digits.padStart(NUMBER_WIDTH, "0");
}

/** Sorts below every character a rank uses, so a rank that is a prefix of another orders first. */
const ORDER_SEPARATOR = " ";
/** Above every order (ranks start with a digit): what a tombstone holds, so no pointer write passes it. */
export const TOMBSTONE_ORDER = "~";

/**
 * The pointer's position: the version's rank, then the edit time of that version, in one string,
 * so the forward-only pointer write is the single comparison `latest_order < :order` (dynalite
 * parses every expression on every call: a compound condition cost five times a simple one).
 */
export function pointerOrder(version: string, updatedAt: string): string {
  return `${versionRank(version)}${ORDER_SEPARATOR}${updatedAt}`;
}
