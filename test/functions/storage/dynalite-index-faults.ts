// What a kill inside dynalite leaves in its secondary indexes, written into a stopped registry's
// data folder with dynalite's own index code: dynalite writes an item's index entries before the
// item and removes them before the item, so a kill between the two leaves an entry naming an item
// that is not stored (`addIndexEntries` without the item), or an item its index lacks
// (`removeIndexEntries` of a stored item). See docs/durability.md, "Repair trusts only base items".
import { createRequire } from "node:module";
import { join } from "node:path";

/** An item's attributes as dynalite stores them (DynamoDB JSON), e.g. `{ tool_id: { S: "x" } }`. */
export type StoredItem = Record<string, Record<string, unknown>>;

interface IndexAction {
  index: string;
  key: string;
  item: StoredItem;
}
interface DynaliteTable {
  TableName: string;
  GlobalSecondaryIndexes?: unknown[];
}
interface DynaliteStore {
  db: { close(): Promise<void> };
  getTable(name: string, cb: (error: Error | null, table: DynaliteTable) => void): void;
  getItemDb(table: string): { get(key: string, cb: (error: Error | null, item?: StoredItem) => void): void };
  getIndexDb(
    type: "Global",
    table: string,
    index: string,
  ): {
    put(key: string, value: unknown, cb: (error?: Error | null) => void): void;
    del(key: string, cb: (error?: Error | null) => void): void;
  };
}
interface DynaliteDb {
  create(options: { path: string }): DynaliteStore;
  createKey(item: StoredItem, table: DynaliteTable): string;
  getIndexActions(
    indexes: unknown[],
    existing: StoredItem | undefined,
    item: StoredItem | undefined,
    table: DynaliteTable,
  ): {
    puts: IndexAction[];
    deletes: IndexAction[];
  };
}

const dynaliteDb = createRequire(import.meta.url)("dynalite/db") as DynaliteDb;

export interface IndexFaults {
  /** The stored item with this key (`{ tool_id: { S }, version: { S } }`), as dynalite keeps it. */
  readItem(key: StoredItem): Promise<StoredItem | undefined>;
  /** The index entries a put of `item` writes first, without the item: phantoms. */
  addIndexEntries(item: StoredItem): Promise<void>;
  /** The index entries a delete of `item` removes first, with the item left stored. */
  removeIndexEntries(item: StoredItem): Promise<void>;
}

/** Opens the stopped registry's table in `dataDir` with dynalite's own store and index code. */
export async function withIndexFaults(dataDir: string, tableName: string, use: (faults: IndexFaults) => Promise<void>): Promise<void> {
  const store = dynaliteDb.create({ path: join(dataDir, "dynamodb") });
  try {
    const table = await new Promise<DynaliteTable>((resolve, reject) =>
      store.getTable(tableName, (error, found) => (error ? reject(error) : resolve(found))),
    );
    const apply = (actions: IndexAction[], write: (action: IndexAction, done: (error?: Error | null) => void) => void) =>
      Promise.all(
        actions.map((action) => new Promise<void>((resolve, reject) => write(action, (error) => (error ? reject(error) : resolve())))),
      );
    const indexDb = (action: IndexAction) => store.getIndexDb("Global", table.TableName, action.index);
    await use({
      readItem: (key) =>
        new Promise((resolve, reject) =>
          store.getItemDb(table.TableName).get(dynaliteDb.createKey(key, table), (error, item) => {
            if (error && error.name !== "NotFoundError") reject(error);
            else resolve(error ? undefined : item);
          }),
        ),
      addIndexEntries: async (item) => {
        const { puts } = dynaliteDb.getIndexActions(table.GlobalSecondaryIndexes ?? [], undefined, item, table);
        await apply(puts, (action, done) => indexDb(action).put(action.key, action.item, done));
      },
      removeIndexEntries: async (item) => {
        const { puts } = dynaliteDb.getIndexActions(table.GlobalSecondaryIndexes ?? [], undefined, item, table);
        await apply(puts, (action, done) => indexDb(action).del(action.key, done));
      },
    });
  } finally {
    await store.db.close();
  }
}
