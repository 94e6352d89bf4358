import type { ChangeRecordingDeps } from "../catalog/record-catalog-change.js";
import type { RegistryDeps } from "../registry-deps.js";

/** What the doctor reads and repairs: entries, archives, and the catalog-change record of its repairs. */
export type DoctorDeps = Pick<RegistryDeps, "entries" | "archives"> & ChangeRecordingDeps;
