// The read cache's rules, with a revision source the test controls (no clocks involved).
import { describe, expect, it } from "vitest";
import { RevisionCache } from "../../../functions/catalog/revision-cache.js";

function source() {
  const state = { revision: 1, revisionReads: 0, loads: 0 };
  const readRevision = async () => {
    state.revisionReads++;
    return String(state.revision);
  };
  const load = async () => {
    state.loads++;
    return `value@${state.revision}`;
  };
  return { state, readRevision, load };
}

describe("RevisionCache", () => {
  it("with a window: checks once, then serves reads from memory and shares concurrent misses", async () => {
    const { state, readRevision, load } = source();
    const cache = new RevisionCache(readRevision, 60 * 60 * 1000);
    const values = await Promise.all([cache.remember("k", load), cache.remember("k", load), cache.remember("k", load)]);
    expect(values).toEqual(["value@1", "value@1", "value@1"]);
    expect(state).toMatchObject({ revisionReads: 1, loads: 1 });
    state.revision = 2; // another process wrote; this one keeps its copy within the window
    expect(await cache.remember("k", load)).toBe("value@1");
    expect(state.revisionReads).toBe(1);
  });

  it("reloads at once after this process's own write (invalidate)", async () => {
    const { state, readRevision, load } = source();
    const cache = new RevisionCache(readRevision, 60 * 60 * 1000);
    await cache.remember("k", load);
    state.revision = 2;
    cache.invalidate();
    expect(await cache.remember("k", load)).toBe("value@2");
    expect(state.loads).toBe(2);
  });

  it("with 0: confirms every read against the revision and drops everything when it changes", async () => {
    const { state, readRevision, load } = source();
    const cache = new RevisionCache(readRevision, 0);
    await cache.remember("k", load);
    await cache.remember("k", load);
    expect(state).toMatchObject({ revisionReads: 2, loads: 1 });
    state.revision = 2;
    expect(await cache.remember("k", load)).toBe("value@2");
    expect(state.loads).toBe(2);
  });

  it("does not keep a failed load", async () => {
    const { readRevision } = source();
    const cache = new RevisionCache(readRevision, 0);
    await expect(cache.remember("k", () => Promise.reject(new Error("storage down")))).rejects.toThrow("storage down");
    expect(await cache.remember("k", async () => "recovered")).toBe("recovered");
  });
});
