type Callback = (error: unknown, value?: unknown) => void;

/** The callback methods of dynalite's LevelDB handle that the cache sits in front of. */
export interface TableCacheHandle {
  [method: string]: unknown;
}

/** dynalite keeps each table's definition under this prefix of its one LevelDB (`db/index.js`, `getSubDb("table")`). */
const TABLE_PREFIX = "table~";

/**
 * Serves dynalite's reads of table definitions from memory. dynalite reads the table's definition
 * from LevelDB before every item operation (`getTable`): in a CPU profile of 10 concurrent uploads
 * that read was 15% of the DynamoDB emulator's thread, and one of the three LevelDB round trips
 * of a conditional write. A definition only changes through dynalite's own writes to its key
 * (create, update, delete table), so any write naming a table key (or a key it cannot read) forgets the cache,
 * and a read that overlapped a write is not kept. Each read answers a fresh copy (dynalite may
 * change the object it gets), parsed from the JSON the cache keeps, as LevelDB's JSON encoding would.
 */
export function cacheTableReads(db: TableCacheHandle): void {
  const cached = new Map<string, string>();
  let generation = 0;
  let writing = 0;
  const get = db.get as (...args: unknown[]) => unknown;
  db.get = (...args: unknown[]) => {
    const [key, callback] = [args[0], args.at(-1)];
    if (typeof key !== "string" || !key.startsWith(TABLE_PREFIX) || typeof callback !== "function" || args.length !== 2) {
      return get.apply(db, args);
    }
    const hit = cached.get(key);
    if (hit !== undefined) {
      const value: unknown = JSON.parse(hit);
      queueMicrotask(() => (callback as Callback)(null, value));
      return undefined;
    }
    const started = generation;
    return get.call(db, key, (error: unknown, value: unknown) => {
      if (!error && value !== undefined && writing === 0 && generation === started) cached.set(key, JSON.stringify(value));
      (callback as Callback)(error, value);
    });
  };
  for (const method of ["put", "del", "batch"] as const) {
    const write = db[method] as (...args: unknown[]) => unknown;
    db[method] = (...args: unknown[]) => {
      const callback = args.at(-1);
      const keys = method === "batch" && Array.isArray(args[0]) ? args[0].map((operation: { key?: unknown }) => operation?.key) : [args[0]];
      const touchesTables = keys.some((key) => typeof key !== "string" || key.startsWith(TABLE_PREFIX));
      if (!touchesTables || typeof callback !== "function") return write.apply(db, args);
      const forget = () => {
        generation++;
        cached.clear();
      };
      forget();
      writing++;
      return write.apply(db, [
        ...args.slice(0, -1),
        (...results: unknown[]) => {
          writing--;
          forget();
          (callback as (...results: unknown[]) => void)(...results);
        },
      ]);
    };
  }
}
