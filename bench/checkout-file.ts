import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** A file of a repository checkout: a work tree, or a bare clone (read through `git show HEAD:`). */
export function readCheckoutFile(checkout: string, path: string): string {
  const file = join(checkout, path);
  if (existsSync(file)) return readFileSync(file, "utf8");
  return execFileSync("git", ["-C", checkout, "show", `HEAD:${path}`], { encoding: "utf8", maxBuffer: 256 * 2 ** 20 });
}
