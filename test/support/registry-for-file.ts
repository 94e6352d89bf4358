// One real registry for a test file, with the temporary folders its tests make: started before the
// file's tests, closed and removed after them (the shared setup of the end-to-end suites).
import { afterAll, beforeAll } from "vitest";
import { TempDirs } from "../sdk/support/temp-dirs.js";
import { startTestRegistry, type TestRegistry, type TestRegistryOptions } from "./registry.js";

export interface RegistryForFile {
  /** The registry, once `beforeAll` has started it. */
  readonly registry: TestRegistry;
  readonly tempDirs: TempDirs;
  /** The file's scratch folder (`folderPrefix` given), made beside the registry's start. */
  readonly folder: string;
}

export function registryForFile(options: TestRegistryOptions = {}, folderPrefix?: string): RegistryForFile {
  let registry: TestRegistry | undefined;
  let folder: string | undefined;
  const tempDirs = new TempDirs();
  beforeAll(async () => {
    [registry, folder] = await Promise.all([
      startTestRegistry(options),
      folderPrefix === undefined ? undefined : tempDirs.make(folderPrefix),
    ]);
  });
  afterAll(async () => {
    await registry?.close();
    await tempDirs.removeAll();
  });
  return {
    get registry() {
      if (registry === undefined) throw new Error("the registry starts in beforeAll: use it inside a test or hook");
      return registry;
    },
    tempDirs,
    get folder() {
      if (folder === undefined) throw new Error("no scratch folder: pass registryForFile a folderPrefix, and use it inside a test or hook");
      return folder;
    },
  };
}
