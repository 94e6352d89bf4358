import type { PlatformArch, PlatformLibc, PlatformOs, ToolPlatform } from "./tool-platforms.js";
import { platformKey } from "./tool-platforms.js";

/**
 * What an executable file is, read from its first bytes: a native program (ELF, Mach-O, PE) with
 * the OS and CPU it is built for, a script (`#!`), or something no loader runs. Enough to tell an
 * author, a registry and an agent "this is an ELF for arm64, not for x64" instead of a shell
 * error (docs/authoring.md#platforms).
 */
export type ExecutableFormat =
  | {
      kind: "elf";
      arch: PlatformArch | undefined;
      machine: string;
      bits: 32 | 64;
      os: "linux" | PlatformOs | undefined;
      libc: PlatformLibc | "static" | "other";
    }
  | { kind: "mach-o"; archs: (PlatformArch | undefined)[]; machine: string }
  | { kind: "pe"; arch: PlatformArch | undefined; machine: string }
  | { kind: "script"; interpreter: string }
  | { kind: "unknown" };

/** The bytes `executableFormat` needs: ELF and PE headers, and the program interpreter path, which linkers put right after them. */
export const EXECUTABLE_HEAD_BYTES = 64 * 1024;

/** ELF `e_machine` (and class, where one number covers two widths) → Node's `process.arch`. */
const ELF_MACHINES: Record<number, { name: string; arch: (bits: 32 | 64, littleEndian: boolean) => PlatformArch | undefined }> = {
  3: { name: "x86 (i386)", arch: (bits) => (bits === 32 ? "ia32" : undefined) },
  62: { name: "x86-64", arch: (bits) => (bits === 64 ? "x64" : undefined) },
  40: { name: "ARM", arch: (bits) => (bits === 32 ? "arm" : undefined) },
  183: { name: "AArch64 (arm64)", arch: (bits) => (bits === 64 ? "arm64" : undefined) },
  243: { name: "RISC-V", arch: (bits) => (bits === 64 ? "riscv64" : undefined) },
  20: { name: "PowerPC", arch: (bits) => (bits === 32 ? "ppc" : undefined) },
  21: { name: "PowerPC 64", arch: (bits) => (bits === 64 ? "ppc64" : undefined) },
  22: { name: "IBM S/390", arch: (bits) => (bits === 64 ? "s390x" : "s390") },
  8: { name: "MIPS", arch: (bits, little) => (bits === 32 ? (little ? "mipsel" : "mips") : undefined) },
  258: { name: "LoongArch", arch: (bits) => (bits === 64 ? "loong64" : undefined) },
};

/** ELF `EI_OSABI` values that name an OS (0, System V, is what Linux toolchains write). */
const ELF_OS_ABI: Record<number, PlatformOs> = { 3: "linux", 9: "freebsd", 12: "openbsd", 2: "netbsd", 6: "sunos" };
/** OSes whose programs are ELF files. */
const ELF_SYSTEMS: readonly PlatformOs[] = ["linux", "android", "freebsd", "openbsd", "netbsd", "sunos", "haiku"];

const MACH_O_CPUS = new Map<number, { name: string; arch: PlatformArch }>([
  [7, { name: "i386", arch: "ia32" }],
  [0x01000007, { name: "x86_64", arch: "x64" }],
  [12, { name: "arm", arch: "arm" }],
  [0x0100000c, { name: "arm64", arch: "arm64" }],
]);

const PE_MACHINES = new Map<number, { name: string; arch: PlatformArch }>([
  [0x14c, { name: "x86 (i386)", arch: "ia32" }],
  [0x8664, { name: "x86-64", arch: "x64" }],
  [0xaa64, { name: "ARM64", arch: "arm64" }],
  [0x1c4, { name: "ARM", arch: "arm" }],
]);

/** Reads the format from the file's first bytes (`EXECUTABLE_HEAD_BYTES` suffice). */
export function executableFormat(head: Uint8Array): ExecutableFormat {
  const bytes = Buffer.from(head.buffer, head.byteOffset, head.byteLength);
  if (bytes.length >= 2 && bytes[0] === 0x23 && bytes[1] === 0x21) {
    const line = bytes.subarray(2, Math.min(bytes.length, 256)).toString("latin1").split("\n")[0] ?? "";
    return { kind: "script", interpreter: line.trim() };
  }
  if (bytes.length >= 20 && bytes.readUInt32BE(0) === 0x7f454c46) return elfFormat(bytes);
  const machO = machOFormat(bytes);
  if (machO !== undefined) return machO;
  if (bytes.length >= 64 && bytes[0] === 0x4d && bytes[1] === 0x5a) {
    const offset = bytes.readUInt32LE(0x3c);
    if (offset + 6 <= bytes.length && bytes.readUInt32BE(offset) === 0x50450000) {
      const code = bytes.readUInt16LE(offset + 4);
      const machine = PE_MACHINES.get(code);
      return { kind: "pe", arch: machine?.arch, machine: machine?.name ?? `machine 0x${code.toString(16)}` };
    }
  }
  return { kind: "unknown" };
}

/** "an ELF 64-bit x86-64 executable (linux, glibc)", "a script (#!/bin/sh)": for messages. */
export function describeExecutable(format: ExecutableFormat): string {
  switch (format.kind) {
    case "elf": {
      const facts = [format.os, format.libc === "other" ? undefined : format.libc === "static" ? "statically linked" : format.libc];
      const known = facts.filter((fact) => fact !== undefined);
      return `an ELF ${format.bits}-bit ${format.machine} executable${known.length > 0 ? ` (${known.join(", ")})` : ""}`;
    }
    case "mach-o":
      return `a macOS (Mach-O) ${format.machine} executable`;
    case "pe":
      return `a Windows (PE) ${format.machine} executable`;
    case "script":
      return `a script (#!${format.interpreter})`;
    case "unknown":
      return "not an executable any system loads (no ELF, Mach-O or PE header, no #! line)";
  }
}

/**
 * Why an executable of `format` cannot run on `platform`, in words; undefined when it can. A
 * script runs wherever its interpreter does; a statically linked Linux executable runs with either C library.
 */
export function executableMismatch(format: ExecutableFormat, platform: ToolPlatform): string | undefined {
  const target = platformKey(platform);
  const is = describeExecutable(format);
  switch (format.kind) {
    case "script":
      return undefined;
    case "unknown":
      return `it is ${is}`;
    case "elf": {
      if (!ELF_SYSTEMS.includes(platform.os)) return `it is ${is}, which ${platform.os} does not run (${target})`;
      if (format.os !== undefined && format.os !== platform.os && !(format.os === "linux" && platform.os === "android"))
        return `it is ${is}, built for ${format.os}, not ${platform.os}`;
      if (format.arch !== platform.arch) return `it is ${is}, not one for ${platform.arch} (${target})`;
      if (platform.libc !== undefined && (format.libc === "glibc" || format.libc === "musl") && format.libc !== platform.libc)
        return `it is ${is}: it needs ${format.libc}, not ${platform.libc} (${target})`;
      return undefined;
    }
    case "mach-o":
      if (platform.os !== "darwin") return `it is ${is}, which only macOS (darwin) runs, not ${platform.os} (${target})`;
      return format.archs.includes(platform.arch) ? undefined : `it is ${is}, not one for ${platform.arch} (${target})`;
    case "pe":
      if (platform.os !== "win32" && platform.os !== "cygwin")
        return `it is ${is}, which only Windows (win32) runs, not ${platform.os} (${target})`;
      return format.arch === platform.arch ? undefined : `it is ${is}, not one for ${platform.arch} (${target})`;
  }
}

/**
 * The platform an executable declares by itself, for `pack` to suggest when spec.json names none:
 * OS and architecture, and for a dynamically linked Linux executable its C library. Undefined for
 * scripts and unknown formats.
 */
export function executablePlatform(format: ExecutableFormat): ToolPlatform | undefined {
  if (format.kind === "elf" && format.arch !== undefined) {
    const os = format.os ?? "linux";
    const libc = os === "linux" && (format.libc === "glibc" || format.libc === "musl") ? { libc: format.libc } : {};
    return { os, arch: format.arch, ...libc };
  }
  if (format.kind === "mach-o" && format.archs.length === 1 && format.archs[0] !== undefined)
    return { os: "darwin", arch: format.archs[0] };
  if (format.kind === "pe" && format.arch !== undefined) return { os: "win32", arch: format.arch };
  return undefined;
}

function elfFormat(bytes: Buffer): ExecutableFormat {
  const bits = bytes[4] === 2 ? 64 : 32;
  const little = bytes[5] !== 2;
  const u16 = (offset: number) => (little ? bytes.readUInt16LE(offset) : bytes.readUInt16BE(offset));
  const u32 = (offset: number) => (little ? bytes.readUInt32LE(offset) : bytes.readUInt32BE(offset));
  const word = (offset: number) =>
    bits === 64 ? Number(little ? bytes.readBigUInt64LE(offset) : bytes.readBigUInt64BE(offset)) : u32(offset);
  const code = u16(18);
  const machine = ELF_MACHINES[code];
  const base = {
    kind: "elf" as const,
    arch: machine?.arch(bits, little),
    machine: machine?.name ?? `machine ${code}`,
    bits: bits as 32 | 64,
    os: ELF_OS_ABI[bytes[7] ?? 0],
  };
  const header = bits === 64 ? { phoff: 32, phentsize: 54, phnum: 56, size: 64 } : { phoff: 28, phentsize: 42, phnum: 44, size: 52 };
  if (bytes.length < header.size) return { ...base, libc: "other" };
  const phoff = word(header.phoff);
  const entrySize = u16(header.phentsize);
  const count = u16(header.phnum);
  for (let index = 0; index < count; index++) {
    const entry = phoff + index * entrySize;
    if (entry + entrySize > bytes.length || entrySize < (bits === 64 ? 56 : 32)) return { ...base, libc: "other" };
    if (u32(entry) !== 3) continue; // PT_INTERP: the dynamic loader's path
    const offset = word(entry + (bits === 64 ? 8 : 4));
    const size = word(entry + (bits === 64 ? 32 : 16));
    if (offset + size > bytes.length) return { ...base, libc: "other" };
    const interpreter = bytes
      .subarray(offset, offset + size)
      .toString("latin1")
      .replace(/\0.*$/s, "");
    return { ...base, libc: libcOfInterpreter(interpreter) };
  }
  return { ...base, libc: "static" };
}

/** `/lib/ld-musl-x86_64.so.1` is musl's; glibc's loaders are `ld-linux*.so.*` and `ld64.so.*` (ppc64, s390x). */
function libcOfInterpreter(interpreter: string): PlatformLibc | "other" {
  if (/\/ld-musl-[^/]*$/.test(interpreter)) return "musl";
  if (/\/ld(-linux[^/]*|64)\.so\.\d+$/.test(interpreter) || /\/ld\.so\.\d+$/.test(interpreter)) return "glibc";
  return "other";
}

function machOFormat(bytes: Buffer): ExecutableFormat | undefined {
  if (bytes.length < 8) return undefined;
  const magic = bytes.readUInt32BE(0);
  const cpu = (code: number) => MACH_O_CPUS.get(code);
  if (magic === 0xfeedface || magic === 0xfeedfacf) return single(cpu(bytes.readUInt32BE(4)), bytes.readUInt32BE(4));
  if (magic === 0xcefaedfe || magic === 0xcffaedfe) return single(cpu(bytes.readUInt32LE(4)), bytes.readUInt32LE(4));
  // Universal binaries list their slices; Java class files share the magic but count far more.
  if (magic === 0xcafebabe) {
    const count = bytes.readUInt32BE(4);
    if (count === 0 || count > 16 || bytes.length < 8 + count * 20) return undefined;
    const slices = Array.from({ length: count }, (_, index) => cpu(bytes.readUInt32BE(8 + index * 20)));
    return {
      kind: "mach-o",
      archs: slices.map((slice) => slice?.arch),
      machine: `universal (${slices.map((slice) => slice?.name ?? "unknown").join(", ")})`,
    };
  }
  return undefined;
}

function single(found: { name: string; arch: PlatformArch } | undefined, code: number): ExecutableFormat {
  return { kind: "mach-o", archs: [found?.arch], machine: found?.name ?? `cpu type ${code}` };
}
