import { execFileSync } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/**
 * A real compiled beacon for programs that load native code a repository names (a JVM
 * `-agentpath`): its constructor runs as the library loads and runs the shell beacon `<id>` of the
 * project the library lies two folders deep in (`<project>/.mvn/lib/lib.so` runs
 * `<project>/tools/hooks/<id>`, beacon-programs.ts).
 */
const SOURCE = `#define _GNU_SOURCE
#include <dlfcn.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__attribute__((constructor)) static void beacon(void) {
  Dl_info info;
  char path[PATH_MAX], command[PATH_MAX + 64];
  if (!dladdr((void *)beacon, &info) || !info.dli_fname) return;
  strncpy(path, info.dli_fname, sizeof path - 1);
  path[sizeof path - 1] = 0;
  snprintf(command, sizeof command, "'%s/tools/hooks/%s'", dirname(dirname(dirname(path))), BEACON_ID);
  if (system(command) != 0) fprintf(stderr, "beacon %s did not run\\n", BEACON_ID);
}
`;

/** Compiles (once per id) the library for `id` into `folder` and returns its path. */
export function beaconLibrary(folder: string, id: string): string {
  const library = join(folder, `libbeacon-${id}.so`);
  if (existsSync(library)) return library;
  const source = join(folder, "beacon.c");
  writeFileSync(source, SOURCE);
  execFileSync("gcc", ["-shared", "-fPIC", "-O1", `-DBEACON_ID="${id}"`, "-o", library, source, "-ldl"]);
  return library;
}
