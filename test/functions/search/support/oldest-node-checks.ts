// Bundled as the Lambda functions are (no node_modules beside it, so no better-sqlite3) and run by
// test/functions/search/oldest-node.test.ts on the oldest Node a nodejs24.x runtime can run (24.0.0:
// node:sqlite without serialize/deserialize). Prints one JSON object of what it observed.
import { readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { chooseDriver, SqliteDatabase, type NodeSqliteModule } from "../../../../functions/search/sqlite-driver.js";
import { searchRuntimeProblem } from "../../../../functions/search/search-runtime.js";
import { ToolSearchIndex } from "../../../../functions/search/tool-search-index.js";

const temporaryFiles = () => readdirSync(tmpdir()).filter((name) => name.startsWith("agent-tools-sqlite-")).length;
const before = temporaryFiles();
const builtin = process.getBuiltinModule("node:sqlite") as NodeSqliteModule;
const noBetterSqlite = () => {
  throw new Error("Cannot find module 'better-sqlite3'");
};
const driver = chooseDriver(() => builtin, noBetterSqlite);

const db = SqliteDatabase.inMemory();
db.exec("CREATE TABLE t (v TEXT NOT NULL); CREATE VIRTUAL TABLE f USING fts5 (body, content = '', contentless_delete = 1)");
db.transaction(() => {
  db.prepare("INSERT INTO t (v) VALUES (?)").run("outer");
  try {
    db.transaction(() => {
      db.prepare("INSERT INTO t (v) VALUES (?)").run("inner");
      throw new Error("inner failed");
    });
  } catch {}
});
db.prepare("INSERT INTO f (rowid, body) VALUES (?, ?)").run(7, "quokka photos");
const copy = SqliteDatabase.fromBytes(db.serialize());
const copied = {
  rows: copy
    .prepare<{ v: string }>("SELECT v FROM t")
    .all()
    .map((row) => row.v),
  matches: copy.prepare<{ rowid: number }>("SELECT rowid FROM f WHERE f MATCH ?").all("quokka"),
};
copy.prepare("INSERT INTO t (v) VALUES (?)").run("written to the copy");
const again = SqliteDatabase.fromBytes(copy.serialize());
const copyOfCopy = again
  .prepare<{ v: string }>("SELECT v FROM t")
  .all()
  .map((row) => row.v);
const whileOpen = temporaryFiles() - before;
for (const handle of [db, copy, again]) handle.close();

let garbage = "accepted";
try {
  SqliteDatabase.fromBytes(new TextEncoder().encode("not a database, just text")).prepare("SELECT * FROM sqlite_master").all();
} catch (error) {
  garbage = `refused: ${(error as Error).message}`;
}

const index = ToolSearchIndex.build([{ tool_id: "quokka-counter", tool_search_description: "Counts quokkas in wildlife photos" }], 3);
const opened = ToolSearchIndex.open(index.serialize());
const hits = opened.search({ q: "quokkas", limit: 5 }).map((hit) => hit.tool_id);
index.close();
opened.close();

console.log(
  JSON.stringify({
    node: process.version,
    driver: { name: driver.name, loadsBytes: "loadsBytes" in driver ? driver.loadsBytes : undefined },
    copied,
    copyOfCopy,
    whileOpen,
    leftOver: temporaryFiles() - before,
    garbage,
    hits,
    runtimeProblem: searchRuntimeProblem() ?? null,
  }),
);
