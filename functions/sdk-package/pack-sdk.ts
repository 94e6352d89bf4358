import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { access, readFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import type { SdkPackage } from "./sdk-package.js";

const run = promisify(execFile);

/** A packed SDK: its tarball at `path`, with the facts the registry serves about it. */
export interface PackedSdk extends SdkPackage {
  path: string;
}

/**
 * `npm pack` of the SDK folder into `destination`: the exact tarball `npm publish` would upload,
 * from the `dist/` the build made. Used by the local server at start and by the stack at synth.
 */
export async function packSdk(sdkDir: string, destination: string): Promise<PackedSdk> {
  await access(join(sdkDir, "dist", "index.js")).catch(() => {
    throw new Error(`The SDK in ${sdkDir} is not built (no dist/index.js), so it cannot be packed: run npm run build (npm ci runs it).`);
  });
  const { stdout } = await run("npm", ["pack", "--json", "--pack-destination", destination], {
    cwd: sdkDir,
    maxBuffer: 16 * 1024 * 1024,
  });
  const [packed] = JSON.parse(stdout) as { name: string; version: string; filename: string; integrity: string }[];
  if (packed === undefined) throw new Error(`npm pack in ${sdkDir} reported no tarball`);
  const path = join(destination, packed.filename);
  const bytes = await readFile(path);
  return {
    name: packed.name,
    version: packed.version,
    file: packed.filename,
    integrity: packed.integrity,
    sha256: createHash("sha256").update(bytes).digest("hex"),
    size: bytes.byteLength,
    path,
  };
}
