// The SQLite driver adapter of the search index (this Node's driver; test/functions/search/lambda-bundle.test.ts
// runs node:sqlite inside the deployed bundle on Node 24, with and without serialise, and
// test/functions/search/oldest-node.test.ts runs these same checks on 24.0.0's node:sqlite through files).
import { describe, expect, it } from "vitest";
import { chooseDriver, SqliteDatabase, sqliteDriverName, type NodeSqliteModule } from "../../../functions/search/sqlite-driver.js";

const table = () => {
  const db = SqliteDatabase.inMemory();
  db.exec("CREATE TABLE t (v TEXT NOT NULL)");
  return db;
};
const values = (db: SqliteDatabase) =>
  db
    .prepare<{ v: string }>("SELECT v FROM t ORDER BY rowid")
    .all()
    .map((row) => row.v);

describe("SqliteDatabase", () => {
  it("uses better-sqlite3 on a Node without node:sqlite's deserialize", () => {
    const builtin = process.getBuiltinModule?.("node:sqlite") as { DatabaseSync?: { prototype: { deserialize?: unknown } } } | undefined;
    expect(sqliteDriverName()).toBe(typeof builtin?.DatabaseSync?.prototype.deserialize === "function" ? "node:sqlite" : "better-sqlite3");
  });

  it("prefers node:sqlite that loads bytes, then better-sqlite3, then node:sqlite through files; says what is missing without any", () => {
    const missing = () => {
      throw new Error("Cannot find module 'better-sqlite3'\nRequire stack: …");
    };
    const betterSqlite = (() => undefined) as unknown as typeof import("better-sqlite3");
    const withBytes = {
      DatabaseSync: class {
        deserialize() {}
      },
    } as unknown as NodeSqliteModule;
    const withoutBytes = { DatabaseSync: class {} } as unknown as NodeSqliteModule;
    expect(
      chooseDriver(
        () => withBytes,
        () => betterSqlite,
      ),
    ).toEqual({ name: "node:sqlite", module: withBytes, loadsBytes: true });
    expect(
      chooseDriver(
        () => withoutBytes,
        () => betterSqlite,
      ),
    ).toEqual({ name: "better-sqlite3", module: betterSqlite });
    // A Lambda bundle on a nodejs24.x runtime before 24.16: no better-sqlite3 in it.
    expect(chooseDriver(() => withoutBytes, missing)).toEqual({ name: "node:sqlite", module: withoutBytes, loadsBytes: false });
    expect(() => chooseDriver(() => undefined, missing)).toThrow(
      /needs SQLite: node:sqlite \(Node 22\.13 or later; Node .*\) or the better-sqlite3 package \(Cannot find module 'better-sqlite3'\)\. On AWS Lambda, deploy on the nodejs24\.x runtime/,
    );
  });

  it("opens the bytes it serialised, FTS5 included", () => {
    const db = table();
    db.exec("CREATE VIRTUAL TABLE f USING fts5 (body, content = '', contentless_delete = 1)");
    db.prepare("INSERT INTO f (rowid, body) VALUES (?, ?)").run(7, "quokka photos");
    const copy = SqliteDatabase.fromBytes(db.serialize());
    expect(copy.prepare<{ rowid: number }>("SELECT rowid FROM f WHERE f MATCH ?").all("quokka")).toEqual([{ rowid: 7 }]);
  });

  it("refuses bytes that are no database on first read", () => {
    expect(() =>
      SqliteDatabase.fromBytes(new TextEncoder().encode("not a database, just text")).prepare("SELECT * FROM sqlite_master").all(),
    ).toThrow();
  });

  it("commits a transaction, and rolls back all of it when the body throws", () => {
    const db = table();
    db.transaction(() => db.prepare("INSERT INTO t (v) VALUES (?)").run("kept"));
    expect(() =>
      db.transaction(() => {
        db.prepare("INSERT INTO t (v) VALUES (?)").run("undone");
        throw new Error("boom");
      }),
    ).toThrow("boom");
    expect(values(db)).toEqual(["kept"]);
  });

  it("undoes only a nested transaction that failed, when the outer one goes on", () => {
    const db = table();
    db.transaction(() => {
      db.prepare("INSERT INTO t (v) VALUES (?)").run("outer");
      expect(() =>
        db.transaction(() => {
          db.prepare("INSERT INTO t (v) VALUES (?)").run("inner");
          throw new Error("inner failed");
        }),
      ).toThrow("inner failed");
      db.transaction(() => db.prepare("INSERT INTO t (v) VALUES (?)").run("after"));
    });
    expect(values(db)).toEqual(["outer", "after"]);
    // And the database is out of any transaction again: a new one begins cleanly.
    db.transaction(() => db.prepare("INSERT INTO t (v) VALUES (?)").run("next"));
    expect(values(db)).toEqual(["outer", "after", "next"]);
  });
});
