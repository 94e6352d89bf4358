// Concurrent space checks share a statfs, and each still gets its own verdict.
import { mkdtemp, rm, statfs } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DiskSpace } from "../../../functions/local/disk-space.js";

let dataDir: string;
let space: DiskSpace;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), "agent-tools-disk-space-"));
  ({ space } = await DiskSpace.prepare(dataDir));
});

afterAll(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

const freeBytes = async () => {
  const stats = await statfs(dataDir);
  return stats.bavail * stats.bsize;
};

describe("checks of room for writes, many at once", () => {
  it("admits every write that fits and refuses, with 507, each that does not, in any mix", async () => {
    const tooLarge = await freeBytes(); // needs twice that
    const sizes = Array.from({ length: 30 }, (_, i) => (i % 3 === 1 ? tooLarge : 1024 * i));
    const verdicts = await Promise.allSettled(sizes.map((size) => space.assertRoomFor(size)));
    verdicts.forEach((verdict, i) => {
      if (sizes[i] === tooLarge) {
        expect(verdict.status, `check ${i}`).toBe("rejected");
        expect((verdict as PromiseRejectedResult).reason).toMatchObject({ status: 507 });
      } else expect(verdict.status, `check ${i}`).toBe("fulfilled");
    });
  });

  it("keeps answering after a burst: a check asked after one settles measures again", async () => {
    await space.assertRoomFor(1);
    await expect(space.assertRoomFor(await freeBytes())).rejects.toMatchObject({ status: 507 });
    await space.assertRoomFor(1);
  });
});
