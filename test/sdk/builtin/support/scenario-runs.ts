import { execFileSync } from "node:child_process";
import { chmodSync, chownSync, mkdtempSync, rmSync } from "node:fs";

/** `nobody` on Debian and most distributions: what an unprivileged agent runs as in these tests. */
export const NOBODY = 65534;

/**
 * Scenario folders under /var/tmp (the sandbox replaces /tmp with a private one, which would hide
 * them for the wrong reason), readable by everyone like a home folder, optionally owned by `owner`.
 */
export function scenarioFolders(prefix: string): { folder: (owner?: number) => string; removeAll: () => void } {
  const made: string[] = [];
  return {
    folder: (owner) => {
      const path = mkdtempSync(`/var/tmp/${prefix}`);
      chmodSync(path, 0o755);
      if (owner !== undefined) chownSync(path, owner, owner);
      made.push(path);
      return path;
    },
    removeAll: () => {
      for (const path of made) rmSync(path, { recursive: true, force: true });
    },
  };
}

/**
 * A scenario run twice, for real: in this process (as whoever runs the tests, root in CI) and in a
 * child as an unprivileged user (`setpriv` to uid 65534 when the tests run as root), which runs
 * `node --import tsx <scenarioFile> <folder>` and prints its result as JSON.
 */
export async function runAsUserAndUnprivileged<T>(
  scenarioFile: string,
  inProcess: (folder: string) => Promise<T>,
  folders: ReturnType<typeof scenarioFolders>,
): Promise<{ who: string; folder: string; result: T }[]> {
  const own = folders.folder();
  const first = { who: "the test's user", folder: own, result: await inProcess(own) };
  const asRoot = process.getuid?.() === 0;
  const unprivileged = folders.folder(asRoot ? NOBODY : undefined);
  const child = ["node", "--import", "tsx", scenarioFile, unprivileged];
  const argv = asRoot ? ["setpriv", `--reuid=${NOBODY}`, `--regid=${NOBODY}`, "--clear-groups", ...child] : child;
  const printed = execFileSync(argv[0]!, argv.slice(1), { encoding: "utf8", env: { PATH: process.env.PATH ?? "/usr/bin:/bin" } });
  return [first, { who: "an unprivileged user", folder: unprivileged, result: JSON.parse(printed) as T }];
}
