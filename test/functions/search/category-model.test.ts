// The category model (functions/search/category-model.ts) on its own: posteriors over a catalogue's
// types from the pooled counts of the query's terms.
import { describe, expect, it } from "vitest";
import { CATEGORY_WEIGHT, CategoryModel } from "../../../functions/search/category-model.js";

/** A catalogue whose row `rowid` is of category `categoryOf[rowid]` (-1: no row), with these lengths per category. */
const catalogue = (categoryOf: number[], categoryLengths: number[]) => {
  const statistics = {
    categoryOf: (rowid: number) => categoryOf[rowid] ?? -1,
    categoryLengths,
    categoryTools: categoryLengths.map((_, category) => categoryOf.filter((of) => of === category).length),
  };
  return new CategoryModel(() => statistics);
};

// Rows 1 and 2 are of category 0, row 3 of category 1; each category has 20 weighted terms.
const model = catalogue([-1, 0, 0, 1], [20, 20]);
const posteriors = (scores: Float64Array) => [...scores].map((score) => Math.exp(score / CATEGORY_WEIGHT));

describe("CategoryModel", () => {
  it("pools a term's counts by the category of each row", () => {
    expect(model.countsOf(Int32Array.from([1, 2, 3]), Float32Array.from([2, 1, 0.5]))).toEqual(
      new Map([
        [0, 3],
        [1, 0.5],
      ]),
    );
  });

  it("gives the likelier category the higher score, and posteriors that sum to 1", () => {
    const scores = model.scores([
      { weight: 1, catalogueShare: 0.1, counts: new Map([[0, 3]]) },
      { weight: 1, catalogueShare: 0.05, counts: new Map([[0, 1]]) },
    ]);
    expect(scores[0]).toBeGreaterThan(scores[1]!);
    expect(posteriors(scores).reduce((sum, p) => sum + p, 0)).toBeCloseTo(1, 9);
  });

  it("weighs a term by its weight in the query", () => {
    const evidence = (weightOfSecond: number) =>
      model.scores([
        { weight: 1, catalogueShare: 0.1, counts: new Map([[0, 2]]) },
        { weight: weightOfSecond, catalogueShare: 0.1, counts: new Map([[1, 2]]) },
      ]);
    expect(evidence(1)[0]).toBeCloseTo(evidence(1)[1]!, 9);
    expect(evidence(2)[1]).toBeGreaterThan(evidence(2)[0]!);
  });

  it("changes nothing with a single category or no terms", () => {
    const single = catalogue([-1, 0, 0], [20]);
    expect([...single.scores([{ weight: 1, catalogueShare: 0.1, counts: new Map([[0, 3]]) }])]).toEqual([0]);
    expect([...model.scores([])]).toEqual([0, 0]);
  });

  it("leaves out a category whose tools are all gone, as a fresh build never had it", () => {
    const emptied = catalogue([-1, 0, 0, -1], [20, 0]);
    expect([...emptied.scores([{ weight: 1, catalogueShare: 0.1, counts: new Map([[0, 3]]) }])]).toEqual([0, 0]);
  });
});
