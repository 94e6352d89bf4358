import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ArchiveError, readToolArchive } from "@agent-tools/sdk/archive";
import { tarGzFiles, zipFiles } from "../../support/bundles.js";

const files = {
  "code/": {},
  "code/function.py": "class AgentSpaceV1Tool:\n    pass\n".repeat(20),
  "code/run": { data: "#!/bin/sh\n", mode: 0o755 },
  "code/link": { type: "symlink" as const, linkTarget: "run" },
};
const samples = { zip: zipFiles(files), "tar.gz": tarGzFiles(files) };

/** Damaged input must end in an ArchiveError (a 4xx in the registry), never a RangeError or TypeError (a 500). */
describe.each(Object.entries(samples))("damaged %s", (_format, sample) => {
  it("byte flips and truncations only ever raise ArchiveError", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat(sample.length - 1), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 8 }),
        fc.nat(sample.length),
        (flips, cut) => {
          const damaged = sample.slice(0, Math.max(cut, 1));
          for (const [at, value] of flips) if (at < damaged.length) damaged[at] = value;
          try {
            readToolArchive(damaged);
          } catch (error) {
            expect(error).toBeInstanceOf(ArchiveError);
          }
        },
      ),
      { numRuns: 400 },
    );
  });
});
