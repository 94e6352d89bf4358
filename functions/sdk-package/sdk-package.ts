/**
 * The SDK package a registry serves (docs/registry.md#the-sdk-and-cli-from-the-registry): the
 * `@agent-tools/sdk` it was built with, as the npm tarball `npm pack` makes, at `/sdk/<file>`. Every
 * snippet and doc installs from there, so nothing depends on a name in the npm registry that
 * someone else could register.
 */
export interface SdkPackageFile {
  /** The package name, `@agent-tools/sdk`. */
  name: string;
  version: string;
  /** The tarball's file name, as npm names it: `agent-tools-sdk-0.1.0.tgz`. */
  file: string;
}

/** What a client checks the downloaded tarball against. */
export interface SdkPackageDigests {
  /** Subresource Integrity (`sha512-…`), as npm records it in package-lock.json. */
  integrity: string;
  sha256: string;
  size: number;
}

export type SdkPackage = SdkPackageFile & SdkPackageDigests;

/** Where a registry's SDK package comes from: known by name at once, its tarball stored (and its digests known) once `ready()` resolves. */
export interface SdkPackageSource extends SdkPackageFile {
  /** Resolves once `sdk/<file>` is in storage; where the registry builds the package itself (`npm start`), it packs it first. */
  ready(): Promise<SdkPackageDigests>;
}

/** `@agent-tools/sdk` 0.1.0 → `agent-tools-sdk-0.1.0.tgz`: the name `npm pack` gives a scoped package's tarball. */
export function npmTarballName(name: string, version: string): string {
  return `${name.replace(/^@/, "").replace("/", "-")}-${version}.tgz`;
}

/** The tarball's URL on the registry at `origin`. */
export function sdkTarballUrl(origin: string, file: string): string {
  return `${origin}/sdk/${encodeURIComponent(file)}`;
}

/** A package packed and uploaded before the registry started (the stack does it at deploy time, `SDK_PACKAGE`). */
export function deployedSdkPackage(sdkPackage: SdkPackage): SdkPackageSource {
  const { integrity, sha256, size, ...file } = sdkPackage;
  const digests = Promise.resolve({ integrity, sha256, size });
  return { ...file, ready: () => digests };
}

/** `SDK_PACKAGE`, the JSON the stack sets on the fetch function; a wrong shape is a startup error naming what is wrong. */
export function parseSdkPackage(text: string): SdkPackage {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error(
      `SDK_PACKAGE must be JSON ({"name","version","file","integrity","sha256","size"}), got ${JSON.stringify(text.slice(0, 80))}`,
    );
  }
  const record = (value ?? {}) as Record<string, unknown>;
  const problems = [
    ...(["name", "version", "file"] as const)
      .filter((key) => typeof record[key] !== "string" || record[key] === "")
      .map((key) => `${key} is not a name`),
    ...(/^sha512-[A-Za-z0-9+/]{86}==$/.test(String(record.integrity)) ? [] : ["integrity is not sha512-<base64>"]),
    ...(/^[0-9a-f]{64}$/.test(String(record.sha256)) ? [] : ["sha256 is not 64 hex digits"]),
    ...(Number.isSafeInteger(record.size) && (record.size as number) > 0 ? [] : ["size is not a positive integer"]),
    ...(typeof record.file === "string" && !/^[A-Za-z0-9._-]+\.tgz$/.test(record.file) ? ["file is not a .tgz file name"] : []),
  ];
  if (problems.length > 0) throw new Error(`SDK_PACKAGE: ${problems.join("; ")}`);
  return record as unknown as SdkPackage;
}
