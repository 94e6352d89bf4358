import Database from "better-sqlite3";
import { scaledCatalog } from "../test/search/relevance-catalog.js";
import { toSearchDocument } from "../functions/search/search-document.js";
const docs = scaledCatalog(3000).map((t) => toSearchDocument({ ...t, version: "1.0.0" }));
for (const opts of ["", ", content=''", ", content='', contentless_delete=1", ", detail=column", ", content='', contentless_delete=1, detail=column"]) {
  const db = new Database(":memory:");
  db.exec(`CREATE VIRTUAL TABLE m USING fts5(man${opts})`);
  const ins = db.prepare("INSERT INTO m(rowid, man) VALUES (?, ?)");
  let t = performance.now();
  db.transaction(() => docs.forEach((d, i) => ins.run(i + 1, d.manPage)))();
  const build = performance.now() - t;
  const q = db.prepare(`SELECT rowid, rank FROM m WHERE m MATCH ? ORDER BY rank LIMIT 200`);
  q.all('"convert" OR "csv" OR "json"');
  t = performance.now();
  for (let i = 0; i < 20; i++) q.all('"convert" OR "csv" OR "json"');
  const rows = q.all('"convert" OR "csv" OR "json"').length;
  const cnt = db.prepare(`SELECT count(*) c FROM m WHERE m MATCH ?`).get('"convert" OR "csv" OR "json"');
  console.log(JSON.stringify(opts), "build", build.toFixed(0), "query ms", ((performance.now() - t) / 20).toFixed(2), rows, cnt);
}
console.log(docs[5].manPage.split(" ").length);
