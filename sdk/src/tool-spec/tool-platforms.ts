/**
 * Platforms of binary tools (docs/authoring.md#platforms): the OS, CPU architecture and, on Linux,
 * the C library a tool's executable is built for, named as Node names them (`process.platform`,
 * `process.arch`), so the SDK compares a declaration with the host it runs on without a table.
 */

/** `process.platform` values. */
export const PLATFORM_OS = [
  "aix",
  "android",
  "cygwin",
  "darwin",
  "freebsd",
  "haiku",
  "linux",
  "netbsd",
  "openbsd",
  "sunos",
  "win32",
] as const;
/** `process.arch` values. */
export const PLATFORM_ARCH = [
  "arm",
  "arm64",
  "ia32",
  "loong64",
  "mips",
  "mipsel",
  "ppc",
  "ppc64",
  "riscv64",
  "s390",
  "s390x",
  "x64",
] as const;
/** The C library a dynamically linked Linux executable needs (its program interpreter); a static one runs on either. */
export const PLATFORM_LIBC = ["glibc", "musl"] as const;

export type PlatformOs = (typeof PLATFORM_OS)[number];
export type PlatformArch = (typeof PLATFORM_ARCH)[number];
export type PlatformLibc = (typeof PLATFORM_LIBC)[number];

/** One platform a binary tool's archive is built for. */
export interface ToolPlatform {
  os: PlatformOs;
  arch: PlatformArch;
  /** Linux only; absent means any (a static executable, or one the author did not pin). */
  libc?: PlatformLibc;
}

/**
 * One platform's archive of a version, as the registry lists them in `tool_platform_archives`
 * (the first is `tool.zip`, the same as `tool_archive_sha256`); served entries add its `url`.
 */
export interface PlatformArchive {
  platform: ToolPlatform;
  /** `platformKey(platform)`: the `?platform=` of its download. */
  key: string;
  /** Hex sha256: the SDK refuses bytes that do not match it. */
  sha256: string;
  /** `sha512-<base64>`. */
  integrity: string;
  size: number;
  /** In served entries: where to download it (`…/archive?platform=<key>`). */
  url?: string;
}

/** The most platforms one version declares (one archive each). */
export const MAX_TOOL_PLATFORMS = 16;

/** The JSON Schema of `tool_platforms` in spec.json (part of `TOOL_SPEC_SCHEMA`). */
export const TOOL_PLATFORMS_SCHEMA = {
  type: "array",
  minItems: 1,
  maxItems: MAX_TOOL_PLATFORMS,
  description:
    "Binary tools: the platforms the executable is built for, one archive each: tool.zip for the first, " +
    "tool-<os>-<arch>[-<libc>].zip in the bundle for each other (`pack` builds them from " +
    "platforms/<os>-<arch>[-<libc>]/code/). os and arch as Node names them (process.platform, process.arch); libc " +
    "(glibc or musl) only for linux, where a dynamically linked executable needs one. The registry " +
    "checks each executable's format against its platform; the SDK downloads the one that fits its host.",
  items: {
    type: "object",
    required: ["os", "arch"],
    additionalProperties: false,
    properties: {
      os: { enum: PLATFORM_OS },
      arch: { enum: PLATFORM_ARCH },
      libc: { enum: PLATFORM_LIBC },
    },
  },
  examples: [
    [
      { os: "linux", arch: "x64", libc: "glibc" },
      { os: "linux", arch: "arm64", libc: "glibc" },
      { os: "darwin", arch: "arm64" },
    ],
  ],
} as const;

/** A tool folder's builds per platform: `platforms/<platformKey>/code/`, one folder each (`pack` archives each one). */
export const PLATFORMS_FOLDER = "platforms";

/** `linux-x64-glibc`, `darwin-arm64`: a platform as one word, in bundle file names, folders and `?platform=`. */
export function platformKey(platform: ToolPlatform): string {
  return `${platform.os}-${platform.arch}${platform.libc === undefined ? "" : `-${platform.libc}`}`;
}

/**
 * The bundle file holding the archive of `tool_platforms[index]`: `tool.zip` for the first (what every client
 * reads), then per platform.
 */
export function platformArchiveName(platform: ToolPlatform, index: number): string {
  return index === 0 ? "tool.zip" : `tool-${platformKey(platform)}.zip`;
}

/**
 * What is wrong with `tool_platforms` beyond its JSON Schema (which `TOOL_PLATFORMS_SCHEMA` states):
 * libc named for another OS than linux, a platform listed twice, platforms on a tool that is not a binary.
 */
export function platformRuleProblems(platforms: readonly ToolPlatform[], runtime: unknown): string[] {
  const problems: string[] = [];
  if (runtime === undefined || runtime === "" || runtime === "python")
    problems.push(
      'tool_platforms applies to binary tools (tool_runtime_type "binary"); ' +
        "a Python tool runs wherever its interpreter does: remove tool_platforms",
    );
  platforms.forEach((platform, index) => {
    if (platform.libc !== undefined && platform.os !== "linux")
      problems.push(
        `tool_platforms[${index}] names libc "${platform.libc}" for os "${platform.os}"; libc applies to linux only: remove it`,
      );
  });
  const keys = platforms.map(platformKey);
  const repeated = [...new Set(keys.filter((key, index) => keys.indexOf(key) !== index))];
  if (repeated.length > 0) problems.push(`tool_platforms lists ${repeated.join(", ")} more than once; list each platform once`);
  return problems;
}

/** Whether an archive built for `declared` runs on `host`: same OS and architecture, and the C library when the declaration names one. */
export function platformFits(declared: ToolPlatform, host: ToolPlatform): boolean {
  return declared.os === host.os && declared.arch === host.arch && (declared.libc === undefined || declared.libc === host.libc);
}

let host: ToolPlatform | undefined;

/** The platform this process runs on; on Linux with the C library Node itself was loaded with. */
export function hostPlatform(): ToolPlatform {
  host ??= {
    os: process.platform as PlatformOs,
    arch: process.arch as PlatformArch,
    ...(process.platform === "linux" ? { libc: hostLibc() } : {}),
  };
  return host;
}

/** Node's report names the glibc it runs on; without one, Linux is musl (Alpine and the like). */
function hostLibc(): PlatformLibc {
  const header = (process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined)?.header;
  return header?.glibcVersionRuntime === undefined ? "musl" : "glibc";
}
