import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { validateBundle } from "../../../functions/validate/validate-bundle.js";
import { HttpProblem } from "../../../functions/http-problem.js";
import { fixtureBundle } from "../../support/bundles.js";

let bundle: Uint8Array;
beforeAll(async () => {
  bundle = (await fixtureBundle("text-stats")).bundle;
});

describe("damaged bundles", () => {
  it("are refused with a 4xx HttpProblem, never an unexpected exception (which would be a 500)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 6 }),
        fc.nat(),
        (flips, cut) => {
          const damaged = bundle.slice(0, Math.max(cut % (bundle.length + 1), 1));
          for (const [at, value] of flips) damaged[at % damaged.length] = value;
          try {
            validateBundle(damaged);
          } catch (error) {
            expect(error).toBeInstanceOf(HttpProblem);
            expect((error as HttpProblem).status).toBeGreaterThanOrEqual(400);
            expect((error as HttpProblem).status).toBeLessThan(500);
          }
        },
      ),
      { numRuns: 400 },
    );
  });
});
