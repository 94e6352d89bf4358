// Same-key operations never overlap; other keys are not held up; a failure does not block the queue.
import { describe, expect, it } from "vitest";
import { KeyedLock } from "../../../functions/storage/keyed-lock.js";

describe("KeyedLock", () => {
  it("runs same-key operations one at a time, in order, and other keys alongside", async () => {
    const lock = new KeyedLock();
    const events: string[] = [];
    let releaseFirst!: () => void;
    const first = lock.run("a", async () => {
      events.push("a1 start");
      await new Promise<void>((resolve) => (releaseFirst = resolve));
      events.push("a1 end");
    });
    const second = lock.run("a", async () => void events.push("a2"));
    const other = lock.run("b", async () => void events.push("b"));
    await other;
    expect(events).toEqual(["a1 start", "b"]);
    releaseFirst();
    await Promise.all([first, second]);
    expect(events).toEqual(["a1 start", "b", "a1 end", "a2"]);
  });

  it("passes results and failures through without blocking later operations", async () => {
    const lock = new KeyedLock();
    await expect(lock.run("k", async () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    expect(await lock.run("k", async () => 42)).toBe(42);
  });
});
