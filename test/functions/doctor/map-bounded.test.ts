import { describe, expect, it } from "vitest";
import { mapBounded } from "../../../functions/doctor/map-bounded.js";

describe("mapBounded", () => {
  it("keeps the items' order however the calls finish, and never runs more than the limit at once", async () => {
    let running = 0;
    let most = 0;
    const items = Array.from({ length: 40 }, (_, index) => index);
    const results = await mapBounded(items, 6, async (item) => {
      running++;
      most = Math.max(most, running);
      // Later items finish first: the order of the results must not follow completion.
      await new Promise((resolve) => setTimeout(resolve, (40 - item) % 7));
      running--;
      return item * 2;
    });
    expect(results).toEqual(items.map((item) => item * 2));
    expect(most).toBe(6);
  });

  it("answers an empty list, and rejects as soon as one call fails", async () => {
    expect(await mapBounded([], 4, async () => 1)).toEqual([]);
    await expect(
      mapBounded([1, 2, 3], 2, async (item) => {
        if (item === 2) throw new Error("item 2 failed");
        return item;
      }),
    ).rejects.toThrow("item 2 failed");
  });
});
