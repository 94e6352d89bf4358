import { execFile, execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
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
 * from the `dist/` the build made. The local server packs this way on first need.
 */
export async function packSdk(sdkDir: string, destination: string): Promise<PackedSdk> {
  checkBuilt(sdkDir);
  const { stdout } = await run("npm", npmPackArgs(destination), { cwd: sdkDir, maxBuffer: 16 * 1024 * 1024 });
  return packedFrom(stdout, sdkDir, destination);
}

/** The same, blocking: for the stack, whose synthesis is synchronous. */
export function packSdkSync(sdkDir: string, destination: string): PackedSdk {
  checkBuilt(sdkDir);
  const stdout = execFileSync("npm", npmPackArgs(destination), { cwd: sdkDir, encoding: "utf8", maxBuffer: 16 * 1024 * 1024 });
  return packedFrom(stdout, sdkDir, destination);
}

function checkBuilt(sdkDir: string): void {
  if (!existsSync(join(sdkDir, "dist", "index.js")))
    throw new Error(`The SDK in ${sdkDir} is not built (no dist/index.js), so it cannot be packed: run npm run build (npm ci runs it).`);
}

function npmPackArgs(destination: string): string[] {
  return ["pack", "--json", "--pack-destination", destination];
}

function packedFrom(stdout: string, sdkDir: string, destination: string): PackedSdk {
  const [packed] = JSON.parse(stdout) as { name: string; version: string; filename: string; integrity: string }[];
  if (packed === undefined) throw new Error(`npm pack in ${sdkDir} reported no tarball`);
  const path = join(destination, packed.filename);
  const bytes = readFileSync(path);
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
