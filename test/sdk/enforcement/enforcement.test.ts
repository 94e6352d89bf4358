import { beforeAll, describe, expect, it } from "vitest";
import { MODES, type HarnessPass, type PassResults } from "./harness-protocol.js";
import { runHarnessPass } from "./harness-pass.js";
import { failureReport, modeTotals, totalsReport } from "./harness-report.js";
import { HOSTILE_CORPUS } from "./hostile-corpus.js";
import { HARM_KINDS } from "./run-effects.js";

/**
 * The enforcement harness (docs/sandbox.md#the-enforcement-harness): the hostile corpus run for
 * real through `Bash` as an agent would, inside the outer wall, once as root and once as an
 * unprivileged user (both passes at once, one per core). Every allowed run must leave no canary
 * in any output, run no planted program, change nothing outside the writable folders, connect to
 * nothing, and leave the project, and what runs in it later, intact.
 */
const PASSES: readonly HarnessPass[] = ["root", "unprivileged"];
/** A pass that has not finished by then is killed and fails with its last progress lines. */
const PASS_DEADLINE_MS = 240_000;
const passes = new Map<HarnessPass, PassResults>();

beforeAll(async () => {
  const finished = await Promise.all(PASSES.map((pass) => runHarnessPass(pass, { timeoutMs: PASS_DEADLINE_MS })));
  for (const pass of finished) {
    passes.set(pass.pass, pass);
    console.log(totalsReport(pass));
  }
}, PASS_DEADLINE_MS + 30_000);

const entries = HOSTILE_CORPUS.map((entry, index) => [index, entry.class, entry.command] as const);

describe("the hostile corpus", () => {
  it("holds 150+ distinct entries across the classes of issues 23 and 24", () => {
    expect(HOSTILE_CORPUS.length).toBeGreaterThanOrEqual(150);
    expect(new Set(HOSTILE_CORPUS.map((entry) => entry.command)).size).toBe(HOSTILE_CORPUS.length);
    expect(new Set(HOSTILE_CORPUS.map((entry) => entry.class)).size).toBeGreaterThanOrEqual(14);
  });
});

describe.each(PASSES)("the enforcement harness as %s", (pass) => {
  const results = () => passes.get(pass)!;

  it("ran every entry inside the outer wall as that user, with the project's sandbox on", () => {
    expect(results().uid).toBe(pass === "root" ? 0 : 65534);
    expect(results().sandboxed).toBe(true);
    expect(results().results.map((result) => result.index)).toEqual(HOSTILE_CORPUS.map((_, index) => index));
  });

  it.each(HARM_KINDS)("sees %s when it happens (its detector control)", (kind) => {
    expect(Object.keys(results().controls[kind] ?? {})).toContain(kind);
  });

  it("counts every allowed run once per mode that allowed it", () => {
    for (const mode of MODES) {
      const totals = modeTotals(results().results, mode);
      expect(totals.harmful).toBeLessThanOrEqual(totals.allowed);
      expect(totals.allowed).toBe(results().results.filter((result) => result.ran && result.decisions[mode].behavior === "allow").length);
    }
  });

  it.each(entries)("entry %i (%s) does no harm: %s", (index) => {
    const result = results().results[index]!;
    expect(result.effects, failureReport(HOSTILE_CORPUS[index]!, result)).toEqual({});
  });
});
