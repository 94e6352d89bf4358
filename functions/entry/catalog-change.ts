/** What one catalog write did to one tool. */
export type CatalogChangeKind = "published" | "updated" | "deleted";

export interface CatalogChange {
  toolId: string;
  kind: CatalogChangeKind;
}

/** A change once stored: `revision` is the catalog revision that write produced. */
export interface RecordedCatalogChange extends CatalogChange {
  revision: number;
}
