import type { Server } from "node:http";
import { createRequire } from "node:module";
import dynalite from "dynalite";
import { isDiskFull, STORAGE_FULL_CODE } from "../storage/storage-errors.js";
import { cacheTableReads } from "./dynalite-table-cache.js";

/** The callback methods dynalite installs on its LevelDB handle (`db/index.js`, `wrapWithCallbacks`). */
const CALLBACK_METHODS = ["get", "put", "del", "batch"] as const;
const STREAM_METHODS = ["createKeyStream", "createValueStream"] as const;

type Callback = (error: unknown, ...results: unknown[]) => void;
interface LevelHandle {
  open(): Promise<void>;
  /** dynalite's close, which also marks its lifecycle closed for good; `_original` is LevelDB's own. */
  close: { _original?: () => Promise<void> };
  [method: string]: unknown;
}
/** The store `dynalite/db`'s `create` returns; its `db` is the LevelDB handle every table operation goes through. */
interface DynaliteStore {
  db: LevelHandle;
}
/** An error dynalite answers as a DynamoDB error instead of throwing it (its own convention: `statusCode` and `body`). */
interface AnsweredError {
  statusCode?: number;
  body?: { __type: string; message: string };
  name?: string;
  code?: string;
  message?: string;
}

export interface GuardedDynalite {
  server: Server;
  /** Settles once LevelDB is open: rejects with why it cannot be (a full disk cannot replay the log). */
  opened: Promise<void>;
  /** Closes and opens LevelDB again, clearing an error LevelDB keeps after a write failed (space came back). */
  reopen(): Promise<void>;
}

/**
 * dynalite with its storage errors answered, not thrown. dynalite rethrows every LevelDB error
 * that lacks a `statusCode` (`actions[action](…, (err) => { if (err) throw err })`) from inside a
 * callback, so one failed write (ENOSPC, at 0 bytes free) is an uncaught exception that ends the
 * process. dynalite builds its LevelDB handle in `require("dynalite/db").create`; that export is
 * wrapped for the one synchronous `dynalite()` call below, and the handle's methods then give
 * every error dynalite's own shape for an API error: a full disk is a 507 `InsufficientStorage`
 * (storage-errors.ts), anything else a 500 `InternalServerError` that the SDK retries and the
 * registry answers as 503 (docs/durability.md, "Out of space"). Nothing in node_modules changes.
 */
export function guardedDynalite(options: { path: string }, onDiskFull: () => void): GuardedDynalite {
  const dbModule = createRequire(import.meta.url)("dynalite/db") as { create: (options: object) => DynaliteStore };
  const create = dbModule.create;
  let store: DynaliteStore | undefined;
  dbModule.create = (createOptions) => {
    store = create(createOptions);
    return store;
  };
  let server: Server;
  try {
    server = dynalite({ ...options, createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
  } finally {
    dbModule.create = create;
  }
  if (store === undefined) throw new Error("dynalite did not create its store through dynalite/db's create: the guard needs updating");
  const db = store.db;
  const answered = (error: unknown) => asDynamoError(error, onDiskFull);
  for (const method of CALLBACK_METHODS) {
    const original = db[method] as (...args: unknown[]) => unknown;
    db[method] = (...args: unknown[]) => {
      const callback = args.at(-1);
      if (typeof callback !== "function") return original.apply(db, args);
      const guarded: Callback = (error, ...results) => (callback as Callback)(error ? answered(error) : error, ...results);
      try {
        return original.apply(db, [...args.slice(0, -1), guarded]);
      } catch (error) {
        setImmediate(guarded, error);
        return undefined;
      }
    };
  }
  for (const method of STREAM_METHODS) {
    const original = db[method] as (...args: unknown[]) => NodeJS.EventEmitter;
    // Runs before dynalite's own listener, which passes the error to the same throwing callback.
    db[method] = (...args: unknown[]) => original.apply(db, args).prependListener("error", answered);
  }
  cacheTableReads(db);
  return {
    server,
    opened: db.open(),
    async reopen() {
      // LevelDB's own close: dynalite's would mark its lifecycle closed, and every later call would fail.
      const close = db.close._original;
      if (close === undefined) throw new Error("dynalite's LevelDB handle has no original close: the guard needs updating");
      await close();
      await db.open();
    },
  };
}

/** `error` in the shape dynalite answers instead of throwing (it is changed in place: dynalite keeps the same object). */
function asDynamoError(error: unknown, onDiskFull: () => void): unknown {
  if (typeof error !== "object" || error === null) return error;
  const failure = error as AnsweredError;
  if (failure.statusCode !== undefined || failure.name === "NotFoundError" || failure.code === "LEVEL_NOT_FOUND") return error;
  if (isDiskFull(error)) {
    onDiskFull();
    failure.statusCode = 507;
    failure.body = {
      __type: `com.amazonaws.dynamodb.v20120810#${STORAGE_FULL_CODE}`,
      message: `The disk of the DynamoDB emulator's data is full: ${failure.message ?? "no space left"}`,
    };
  } else {
    failure.statusCode = 500;
    failure.body = {
      __type: "com.amazonaws.dynamodb.v20120810#InternalServerError",
      message: `The DynamoDB emulator's database failed: ${failure.message ?? String(error)}`,
    };
  }
  return error;
}
