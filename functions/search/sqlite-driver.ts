import { randomUUID } from "node:crypto";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type BetterSqlite3 from "better-sqlite3";

/**
 * SQLite for the search index, from whichever driver this Node has: the built-in `node:sqlite`
 * where it can load a database from bytes (Node ≥ 24.16: the Lambda runtime, so the deployed
 * bundle carries no native module), else `better-sqlite3` (Node 20 and 22: `npm start`, the
 * tests), else a `node:sqlite` without `serialize`/`deserialize` (Node 22.13 to 24.15, what an
 * older `nodejs24.x` runtime runs), which goes through a file in the temporary folder instead.
 * All are the same SQLite with FTS5, so a snapshot written by one opens in the others.
 * See docs/search.md, "The SQLite driver on Lambda".
 */
export type SqliteDriverName = "node:sqlite" | "better-sqlite3";

/** Positional parameters, as both drivers bind them. */
export type SqliteValue = string | number | bigint | null | Uint8Array;

export interface SqliteStatement<Row> {
  get(...parameters: SqliteValue[]): Row | undefined;
  all(...parameters: SqliteValue[]): Row[];
  run(...parameters: SqliteValue[]): void;
}

/** The part of `node:sqlite`'s DatabaseSync used here (this project's @types/node is Node 20's). */
interface NodeSqliteDatabase {
  prepare(sql: string): {
    get(...parameters: SqliteValue[]): unknown;
    all(...parameters: SqliteValue[]): unknown[];
    run(...parameters: SqliteValue[]): unknown;
  };
  exec(sql: string): void;
  serialize(): Uint8Array;
  deserialize(bytes: Uint8Array): void;
  close(): void;
}
export interface NodeSqliteModule {
  DatabaseSync: new (path: string) => NodeSqliteDatabase;
}

/** `loadsBytes`: its DatabaseSync has `serialize` and `deserialize` (Node ≥ 24.16); else bytes pass through a file. */
export type Driver =
  | { name: "node:sqlite"; module: NodeSqliteModule; loadsBytes: boolean }
  | { name: "better-sqlite3"; module: typeof BetterSqlite3 };

let driver: Driver | undefined;

function loadDriver(): Driver {
  driver ??= chooseDriver(builtinSqlite, () => createRequire(import.meta.url)("better-sqlite3") as typeof BetterSqlite3);
  return driver;
}

/**
 * node:sqlite when this Node's can load bytes, else better-sqlite3, else node:sqlite through files;
 * none (a Lambda bundle on Node 20, or 22 before 22.13, where node:sqlite needs a flag) is an error
 * that says what is needed.
 */
export function chooseDriver(builtin: () => NodeSqliteModule | undefined, requireBetterSqlite: () => typeof BetterSqlite3): Driver {
  const nodeSqlite = builtin();
  if (nodeSqlite !== undefined && typeof nodeSqlite.DatabaseSync.prototype.deserialize === "function")
    return { name: "node:sqlite", module: nodeSqlite, loadsBytes: true };
  try {
    // Required lazily and by a name esbuild does not follow: a Lambda bundle never contains it.
    return { name: "better-sqlite3", module: requireBetterSqlite() };
  } catch (error) {
    if (nodeSqlite !== undefined) return { name: "node:sqlite", module: nodeSqlite, loadsBytes: false };
    throw new Error(
      `The search index needs SQLite: node:sqlite (Node 22.13 or later; Node ${process.versions.node} has ` +
        `${builtinSqliteState()}) or the better-sqlite3 package (${(error as Error).message.split("\n")[0]}). On AWS ` +
        `Lambda, deploy on the nodejs24.x runtime the stack names (docs/search.md#the-sqlite-driver-on-lambda).`,
      { cause: error },
    );
  }
}

function builtinSqliteState(): string {
  try {
    return process.getBuiltinModule?.("node:sqlite") === undefined ? "none" : "one this code cannot use";
  } catch {
    return "node:sqlite only behind a flag";
  }
}

function builtinSqlite(): NodeSqliteModule | undefined {
  try {
    const module = process.getBuiltinModule?.("node:sqlite") as NodeSqliteModule | undefined;
    return typeof module?.DatabaseSync === "function" ? module : undefined;
  } catch {
    return undefined; // Node 22 before 22.13 has node:sqlite only behind a flag
  }
}

/** The driver this process uses. */
export function sqliteDriverName(): SqliteDriverName {
  return loadDriver().name;
}

/**
 * One in-memory SQLite database: a new empty one, or the one whose file is `bytes` (throws on
 * bytes that are no database once first read, as SQLite itself does).
 */
export class SqliteDatabase {
  private transactionDepth = 0;

  private constructor(
    private readonly handle: NodeSqliteDatabase | BetterSqlite3.Database,
    /** The temporary file holding the database, when this driver cannot hold loaded bytes in memory. */
    private readonly file?: string,
  ) {}

  static inMemory(): SqliteDatabase {
    const loaded = loadDriver();
    return new SqliteDatabase(loaded.name === "node:sqlite" ? new loaded.module.DatabaseSync(":memory:") : new loaded.module(":memory:"));
  }

  static fromBytes(bytes: Uint8Array): SqliteDatabase {
    const loaded = loadDriver();
    if (loaded.name === "better-sqlite3")
      return new SqliteDatabase(new loaded.module(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)));
    if (loaded.loadsBytes) {
      const handle = new loaded.module.DatabaseSync(":memory:");
      handle.deserialize(bytes);
      return new SqliteDatabase(handle);
    }
    // Without deserialize: the bytes become a file of its own (removed on close), the journal stays in memory.
    const file = temporaryFile();
    writeFileSync(file, bytes);
    try {
      const handle = new loaded.module.DatabaseSync(file);
      handle.exec("PRAGMA journal_mode = MEMORY; PRAGMA synchronous = OFF");
      return new SqliteDatabase(handle, file);
    } catch (error) {
      rmSync(file, { force: true });
      throw error;
    }
  }

  /** The database in the file at `path` (created when there is none), read from disk as queries need its pages. */
  static openFile(path: string): SqliteDatabase {
    const loaded = loadDriver();
    return new SqliteDatabase(loaded.name === "node:sqlite" ? new loaded.module.DatabaseSync(path) : new loaded.module(path));
  }

  prepare<Row>(sql: string): SqliteStatement<Row> {
    return this.handle.prepare(sql) as unknown as SqliteStatement<Row>;
  }

  exec(sql: string): void {
    this.handle.exec(sql);
  }

  /** The whole database as one SQLite file. */
  serialize(): Uint8Array {
    const loaded = loadDriver();
    if (loaded.name === "better-sqlite3" || loaded.loadsBytes) return this.handle.serialize();
    // VACUUM INTO writes a complete copy (rowids kept: every table that other rows refer to has an INTEGER PRIMARY KEY).
    const file = temporaryFile();
    try {
      this.prepare("VACUUM INTO ?").run(file);
      return readFileSync(file);
    } finally {
      rmSync(file, { force: true });
    }
  }

  close(): void {
    this.handle.close();
    if (this.file !== undefined) rmSync(this.file, { force: true });
  }

  /** Runs `body` in a transaction; nested calls are savepoints, so an inner failure undoes only its part before it is rethrown. */
  transaction<T>(body: () => T): T {
    const depth = this.transactionDepth;
    const savepoint = `nested_${depth}`;
    this.exec(depth === 0 ? "BEGIN" : `SAVEPOINT ${savepoint}`);
    this.transactionDepth++;
    try {
      const result = body();
      this.exec(depth === 0 ? "COMMIT" : `RELEASE ${savepoint}`);
      return result;
    } catch (error) {
      this.exec(depth === 0 ? "ROLLBACK" : `ROLLBACK TO ${savepoint}; RELEASE ${savepoint}`);
      throw error;
    } finally {
      this.transactionDepth--;
    }
  }
}

function temporaryFile(): string {
  return join(tmpdir(), `agent-tools-sqlite-${randomUUID()}.db`);
}
