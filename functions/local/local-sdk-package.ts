import { readFileSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { packSdk } from "../sdk-package/pack-sdk.js";
import { npmTarballName, type SdkPackageDigests, type SdkPackageSource } from "../sdk-package/sdk-package.js";
import type { SdkPackageStore } from "../storage/sdk-package-store.js";

/** This checkout's SDK package folder. */
export const CHECKOUT_SDK_DIR = fileURLToPath(new URL("../../sdk/", import.meta.url));

/**
 * The SDK this registry was started from, as `/sdk/<file>` serves it: its name and version read
 * from `sdk/package.json` at once, its tarball packed with `npm pack` from the built `sdk/dist` and
 * stored on first need (`npm start` asks at once; a test registry only if a test downloads it).
 * A failed pack is retried on the next request.
 */
export function localSdkPackage(store: SdkPackageStore, sdkDir: string = CHECKOUT_SDK_DIR): SdkPackageSource {
  const { name, version } = JSON.parse(readFileSync(join(sdkDir, "package.json"), "utf8")) as { name: string; version: string };
  const file = npmTarballName(name, version);
  let packing: Promise<SdkPackageDigests> | undefined;

  async function packAndStore(): Promise<SdkPackageDigests> {
    const destination = await mkdtemp(join(tmpdir(), "agent-tools-sdk-pack-"));
    try {
      const packed = await packSdk(sdkDir, destination);
      if (packed.file !== file) throw new Error(`npm pack made ${packed.file}, expected ${file}`);
      await store.put(file, await readFile(packed.path));
      return { integrity: packed.integrity, sha256: packed.sha256, size: packed.size };
    } finally {
      await rm(destination, { recursive: true, force: true });
    }
  }

  return {
    name,
    version,
    file,
    ready() {
      packing ??= packAndStore().catch((error: unknown) => {
        packing = undefined;
        throw error;
      });
      return packing;
    },
  };
}
