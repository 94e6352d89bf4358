import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import type { DiskFullSignal } from "./disk-full-signal.js";
import type { EmulatorAnswer, EmulatorCommand, EmulatorKind } from "./emulator-thread.js";

/**
 * The thread's TypeScript, loaded through tsx's CommonJS hook: worker threads do not inherit the
 * `--import tsx` of `npm start` (nor a test runner's loader), and this hook runs in the thread
 * itself, where tsx's ESM loader would start one more thread.
 */
const BOOT = `require(${JSON.stringify(createRequire(import.meta.url).resolve("tsx/cjs/api"))}).register();
require(${JSON.stringify(fileURLToPath(new URL("./emulator-thread.ts", import.meta.url)))});`;

/** An idle thread (no emulator open) is kept this long for the next start, then ended. */
const IDLE_MS = 2_000;

const NAMES: Record<EmulatorKind, string> = { dynalite: "the DynamoDB emulator", s3rver: "the S3 emulator" };

/** One emulator on 127.0.0.1, running in its kind's thread. */
export interface HostedEmulator {
  endpoint: string;
  /** Opens dynalite's LevelDB again (see `Emulators.reopenTable`); nothing for s3rver. */
  reopen(): Promise<void>;
  /** Stops it (dynalite closes its LevelDB). */
  close(): Promise<void>;
}

const hosts = new Map<EmulatorKind, EmulatorHost>();

/**
 * The worker thread that runs the embedded emulators of one kind (emulator-thread.ts), so their
 * work (request parsing, LevelDB, files) runs beside the server's event loop, on another core
 * (docs/storage.md#the-embedded-emulators). One thread per kind and process, kept while emulators
 * run and for IDLE_MS after, so restarts (and tests) load the emulator's code once. Still one
 * process: a kill of the server stops its emulators at the same instant, and the data-folder lock
 * covers them. An error the thread does not answer while an emulator runs is an uncaught error of
 * the process, as it was when the emulators shared the server's thread.
 */
class EmulatorHost {
  private readonly worker: Worker;
  private nextId = 0;
  private readonly waiting = new Map<
    number,
    { resolve: (answer: EmulatorAnswer & { ok: true }) => void; reject: (error: Error) => void }
  >();
  private open = 0;
  private idleTimer: NodeJS.Timeout | undefined;

  constructor(private readonly kind: EmulatorKind) {
    this.worker = new Worker(BOOT, { eval: true, name: kind, workerData: kind });
    this.worker.on("message", (answer: EmulatorAnswer) => {
      const waiter = this.waiting.get(answer.id);
      this.waiting.delete(answer.id);
      if (answer.ok) waiter?.resolve(answer);
      else waiter?.reject(new Error(answer.message));
    });
    this.worker.on("error", (error) => {
      if (this.open > 0) throw error;
      this.stopped(error);
    });
    this.worker.on("exit", (code) => this.stopped(new Error(`${NAMES[kind]} stopped (exit code ${code})`)));
  }

  async start(dir: string, diskFull: DiskFullSignal): Promise<HostedEmulator> {
    this.opened(+1);
    let started: EmulatorAnswer & { ok: true };
    try {
      started = await this.send({ op: "start", dir, diskFull: diskFull.buffer });
    } catch (error) {
      this.opened(-1);
      throw error;
    }
    const emulator = started.emulator!;
    let closing: Promise<void> | undefined;
    return {
      endpoint: `http://127.0.0.1:${started.port}`,
      reopen: async () => {
        await this.send({ op: "reopen", emulator });
      },
      close: () => {
        closing ??= this.send({ op: "close", emulator }).then(
          () => this.opened(-1),
          () => this.opened(-1),
        );
        return closing;
      },
    };
  }

  /** Keeps the thread (and so the process) alive while emulators run; ends it once idle for IDLE_MS. */
  private opened(change: number): void {
    this.open += change;
    clearTimeout(this.idleTimer);
    if (this.open > 0) {
      this.worker.ref();
      return;
    }
    this.worker.unref();
    this.idleTimer = setTimeout(() => {
      hosts.delete(this.kind);
      void this.worker.terminate();
    }, IDLE_MS).unref();
  }

  private send(command: { op: "start"; dir: string; diskFull: SharedArrayBuffer } | { op: "reopen" | "close"; emulator: number }) {
    const id = this.nextId++;
    return new Promise<EmulatorAnswer & { ok: true }>((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.worker.postMessage({ id, ...command } as EmulatorCommand);
    });
  }

  private stopped(error: Error): void {
    if (hosts.get(this.kind) === this) hosts.delete(this.kind);
    for (const waiter of this.waiting.values()) waiter.reject(error);
    this.waiting.clear();
  }
}

/** Starts an emulator of `kind` persisting in `dir`, in that kind's thread. */
export function startHostedEmulator(kind: EmulatorKind, dir: string, diskFull: DiskFullSignal): Promise<HostedEmulator> {
  let host = hosts.get(kind);
  if (host === undefined) {
    host = new EmulatorHost(kind);
    hosts.set(kind, host);
  }
  return host.start(dir, diskFull);
}
