// The embedded emulators run beside the server's event loop, not on it
// (docs/storage.md#the-embedded-emulators): while this thread (the server's) is blocked, another
// process still gets answers from both emulators. On the server's thread they would answer none.
import { spawn } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestRegistry, type TestRegistry } from "../../support/registry.js";

let registry: TestRegistry;

beforeAll(async () => {
  registry = await startTestRegistry();
});

afterAll(async () => {
  await registry?.close();
});

/**
 * Asks `endpoint` (any answer will do: the emulator's error for an unsigned request is an answer)
 * for `ms` after its first answer, which it announces with a line; then prints the times
 * (Date.now()) of every answer as a JSON array.
 */
const ASKER = `
const [endpoint, ms] = [process.argv[1], Number(process.argv[2])];
const times = [];
let end = Infinity;
while (Date.now() < end) {
  await (await fetch(endpoint, { method: "POST", body: "{}", headers: { "content-type": "application/x-amz-json-1.0" } })).text();
  if (times.length === 0) { end = Date.now() + ms; console.log("answered"); }
  times.push(Date.now());
}
console.log(JSON.stringify(times));
`;

/** The answer times another process got from `endpoint` while this thread was blocked, and the block's bounds. */
async function answersWhileBlocked(endpoint: string): Promise<{ during: number; blocked: [number, number] }> {
  const BLOCK_MS = 800;
  const asker = spawn(process.execPath, ["--input-type=module", "-e", ASKER, endpoint, String(BLOCK_MS + 1_000)], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  let output = "";
  asker.stdout.setEncoding("utf8");
  await new Promise<void>((resolve, reject) => {
    asker.stdout.on("data", (text: string) => {
      output += text;
      if (output.includes("answered")) resolve();
    });
    asker.once("exit", (code) => reject(new Error(`the asking process exited with ${code} before any answer`)));
  });
  // This thread stops: no timer, no I/O callback, no request handled on it, for BLOCK_MS.
  const start = Date.now();
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, BLOCK_MS);
  const end = Date.now();
  await new Promise((resolve) => asker.once("exit", resolve));
  const times = JSON.parse(output.trim().split("\n").at(-1)!) as number[];
  // A margin each side, so an answer sent just before the block or read just after it does not count.
  return { during: times.filter((time) => time > start + 100 && time < end - 100).length, blocked: [start, end] };
}

describe("the embedded emulators", () => {
  it("answer other processes while the server's thread is blocked: DynamoDB and S3 each on a thread of their own", async () => {
    const { dynamodbEndpoint, s3Endpoint } = registry.local.config;
    for (const endpoint of [dynamodbEndpoint!, s3Endpoint!]) {
      const { during, blocked } = await answersWhileBlocked(endpoint);
      expect(blocked[1] - blocked[0]).toBeGreaterThanOrEqual(790);
      expect(during, `answers from ${endpoint} while blocked`).toBeGreaterThan(0);
    }
  });

  it("while the server itself, on the blocked thread, answers nothing (so the measure can tell)", async () => {
    expect((await answersWhileBlocked(registry.url)).during).toBe(0);
  });
});
