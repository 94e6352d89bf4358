// The latest pointer compares ranks in DynamoDB: their byte order must be semver precedence.
import fc from "fast-check";
import semver from "semver";
import { describe, expect, it } from "vitest";
import { versionRank } from "../../../functions/entry/version-rank.js";

const identifier = fc.oneof(
  fc.nat({ max: 100_000 }).map(String),
  fc.stringMatching(/^[0-9A-Za-z-]{1,8}$/).filter((text) => !/^[0-9]+$/.test(text)),
);
const version = fc
  .record({
    core: fc.tuple(fc.nat({ max: 1_000_000 }), fc.nat({ max: 1_000 }), fc.nat({ max: 1_000 })),
    prerelease: fc.array(identifier, { maxLength: 4 }),
  })
  .map(({ core, prerelease }) => `${core.join(".")}${prerelease.length > 0 ? `-${prerelease.join(".")}` : ""}`)
  .filter((text) => semver.valid(text) !== null);

describe("versionRank", () => {
  it("orders versions exactly as semver does", () => {
    fc.assert(
      fc.property(version, version, (a, b) => {
        const byRank = Math.sign(versionRank(a) < versionRank(b) ? -1 : versionRank(a) > versionRank(b) ? 1 : 0);
        expect(byRank, `${a} vs ${b}`).toBe(semver.compare(a, b));
      }),
      { numRuns: 2_000 },
    );
  });

  it("ranks the usual edge cases in semver order", () => {
    const ordered = [
      "0.0.0",
      "1.0.0-alpha",
      "1.0.0-alpha.1",
      "1.0.0-alpha.beta",
      "1.0.0-beta",
      "1.0.0-beta.2",
      "1.0.0-beta.11",
      "1.0.0-rc.1",
      "1.0.0",
      "1.2.0",
      "1.10.0",
      "10.0.0",
    ];
    expect([...ordered].sort((a, b) => (versionRank(a) < versionRank(b) ? -1 : 1))).toEqual(ordered);
    expect(versionRank("1.0.0+build.7")).toBe(versionRank("1.0.0"));
  });
});
