/**
 * The body of an embedded emulator's worker thread (started by `emulator-host.ts`): the emulators
 * of one kind, dynalite or s3rver, each with its full-disk guards, on 127.0.0.1. A `start` answers
 * the new emulator's port (or why it could not start); `reopen` opens its LevelDB again
 * (dynalite-disk-errors.ts) and `close` stops it. A full disk raises the emulator's
 * DiskFullSignal before the failed write is answered.
 */
import { mkdir } from "node:fs/promises";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { parentPort, workerData } from "node:worker_threads";
import S3rver from "s3rver";
import { DiskFullSignal } from "./disk-full-signal.js";
import { guardedDynalite } from "./dynalite-disk-errors.js";
import { guardS3rverWrites } from "./s3rver-disk-errors.js";
import { honourIfNoneMatch } from "./s3rver-if-none-match.js";

export type EmulatorKind = "dynalite" | "s3rver";

export type EmulatorCommand =
  /** `dir`: the emulator's folder; `diskFull`: its DiskFullSignal's buffer. */
  { id: number; op: "start"; dir: string; diskFull: SharedArrayBuffer } | { id: number; op: "reopen" | "close"; emulator: number };

/** The answer to command `id`: the started emulator's number and port, or what failed. */
export type EmulatorAnswer = { id: number; ok: true; emulator?: number; port?: number } | { id: number; ok: false; message: string };

interface RunningEmulator {
  port: number;
  reopen(): Promise<void>;
  close(): Promise<void>;
}

async function startDynalite(dir: string, onDiskFull: () => void): Promise<RunningEmulator> {
  await mkdir(dir, { recursive: true });
  const dynamo = guardedDynalite({ path: dir }, onDiskFull);
  try {
    await dynamo.opened;
  } catch (error) {
    await closeServer(dynamo.server).catch(() => undefined);
    const cause = (error as { cause?: Error }).cause?.message ?? (error as Error).message;
    throw new Error(`the DynamoDB emulator's database in ${dir} cannot be opened: ${cause}`, { cause: error });
  }
  await new Promise<void>((resolve, reject) => {
    dynamo.server.once("error", reject);
    dynamo.server.listen(0, "127.0.0.1", () => resolve());
  });
  return {
    port: (dynamo.server.address() as AddressInfo).port,
    reopen: () => dynamo.reopen(),
    close: () => closeServer(dynamo.server),
  };
}

async function startS3rver(dir: string, onDiskFull: () => void): Promise<RunningEmulator> {
  await mkdir(dir, { recursive: true });
  const s3 = new S3rver({ address: "127.0.0.1", port: 0, directory: dir, silent: true });
  guardS3rverWrites(s3, onDiskFull);
  honourIfNoneMatch(s3);
  const { port } = await s3.run();
  return { port, reopen: async () => undefined, close: () => s3.close() };
}

function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

const START: Record<EmulatorKind, (dir: string, onDiskFull: () => void) => Promise<RunningEmulator>> = {
  dynalite: startDynalite,
  s3rver: startS3rver,
};

const kind = workerData as EmulatorKind;
const running = new Map<number, RunningEmulator>();
let started = 0;

async function run(command: EmulatorCommand): Promise<Omit<EmulatorAnswer & { ok: true }, "id" | "ok">> {
  if (command.op === "start") {
    const signal = new DiskFullSignal(command.diskFull);
    const emulator = await START[kind](command.dir, () => signal.raise());
    running.set(++started, emulator);
    return { emulator: started, port: emulator.port };
  }
  const emulator = running.get(command.emulator);
  if (emulator === undefined) return {};
  if (command.op === "reopen") await emulator.reopen();
  else {
    running.delete(command.emulator);
    await emulator.close();
  }
  return {};
}

parentPort!.on("message", (command: EmulatorCommand) => {
  run(command).then(
    (result) => parentPort!.postMessage({ id: command.id, ok: true, ...result } satisfies EmulatorAnswer),
    (error: unknown) =>
      parentPort!.postMessage({ id: command.id, ok: false, message: String((error as Error)?.message ?? error) } satisfies EmulatorAnswer),
  );
});
