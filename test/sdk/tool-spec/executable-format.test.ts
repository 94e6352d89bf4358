/**
 * What an executable is built for, read from its header, and whether it runs on a platform: real
 * gcc builds (dynamic glibc, static, linked against musl's loader, one's machine field set to
 * another CPU's), a script, bytes no loader runs, and the documented Mach-O and PE header layouts.
 */
import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { describeExecutable, executableFormat, executableMismatch, executablePlatform, hostPlatform } from "@agent-tools/sdk/tool-spec";
import type { ToolPlatform } from "@agent-tools/sdk/tool-spec";
import { compileIncrement, compileIncrementWith, forOtherCpu, OTHER_CPU } from "../../support/bundles.js";

const host = hostPlatform();
let dynamic: Uint8Array;
let staticBuild: Uint8Array;
let muslLinked: Uint8Array;

beforeAll(async () => {
  [dynamic, staticBuild, muslLinked] = await Promise.all([
    compileIncrement().then((path) => readFileSync(path)),
    compileIncrementWith(["-static"]).then((path) => readFileSync(path)),
    compileIncrementWith([`-Wl,--dynamic-linker=/lib/ld-musl-${process.arch === "x64" ? "x86_64" : "aarch64"}.so.1`]).then((path) =>
      readFileSync(path),
    ),
  ]);
});

const linux = (arch: string, libc?: string) => ({ os: "linux", arch, ...(libc === undefined ? {} : { libc }) }) as ToolPlatform;

describe("a build of this machine's gcc", () => {
  it("is an ELF for this CPU that needs this host's C library", () => {
    const format = executableFormat(dynamic);
    expect(format).toMatchObject({ kind: "elf", arch: process.arch, bits: 64, libc: host.libc });
    expect(executableMismatch(format, host)).toBeUndefined();
    expect(executablePlatform(format)).toEqual({ os: "linux", arch: process.arch, libc: host.libc });
    expect(describeExecutable(format)).toMatch(/^an ELF 64-bit .* executable \(.*glibc\)$/);
  });

  it("does not run on another CPU, another OS or with the other C library", () => {
    const format = executableFormat(dynamic);
    expect(executableMismatch(format, linux(OTHER_CPU))).toMatch(new RegExp(`not one for ${OTHER_CPU} \\(linux-${OTHER_CPU}\\)`));
    expect(executableMismatch(format, { os: "darwin", arch: process.arch } as ToolPlatform)).toMatch(/which darwin does not run/);
    expect(executableMismatch(format, { os: "win32", arch: process.arch } as ToolPlatform)).toMatch(/which win32 does not run/);
    expect(executableMismatch(format, linux(process.arch, "musl"))).toMatch(/it needs glibc, not musl/);
    expect(executableMismatch(format, linux(process.arch))).toBeUndefined();
  });

  it("statically linked, runs with either C library", () => {
    const format = executableFormat(staticBuild);
    expect(format).toMatchObject({ kind: "elf", arch: process.arch, libc: "static" });
    expect(executableMismatch(format, linux(process.arch, "musl"))).toBeUndefined();
    expect(executableMismatch(format, linux(process.arch, "glibc"))).toBeUndefined();
    expect(describeExecutable(format)).toMatch(/statically linked/);
  });

  it("linked against musl's loader, needs musl", () => {
    const format = executableFormat(muslLinked);
    expect(format).toMatchObject({ kind: "elf", libc: "musl" });
    expect(executableMismatch(format, linux(process.arch, "glibc"))).toMatch(/it needs musl, not glibc/);
    expect(executablePlatform(format)).toEqual({ os: "linux", arch: process.arch, libc: "musl" });
  });

  it("with another CPU's machine field, is read as that CPU's", () => {
    const format = executableFormat(forOtherCpu(dynamic));
    expect(format).toMatchObject({ kind: "elf", arch: OTHER_CPU });
    expect(executableMismatch(format, host)).toMatch(new RegExp(`not one for ${process.arch}`));
  });

  it("is judged from its first 64 KiB alone", () => {
    expect(executableFormat(dynamic.subarray(0, 64 * 1024))).toEqual(executableFormat(dynamic));
  });
});

describe("other kinds of files", () => {
  it("a script runs wherever its interpreter does", () => {
    const format = executableFormat(new TextEncoder().encode("#!/usr/bin/env python3\nprint(1)\n"));
    expect(format).toEqual({ kind: "script", interpreter: "/usr/bin/env python3" });
    expect(executableMismatch(format, { os: "darwin", arch: "arm64" })).toBeUndefined();
    expect(executablePlatform(format)).toBeUndefined();
  });

  it("bytes no loader runs are refused everywhere, saying what they are not", () => {
    const format = executableFormat(new TextEncoder().encode("echo hello\n"));
    expect(format).toEqual({ kind: "unknown" });
    expect(executableMismatch(format, host)).toMatch(/not an executable any system loads \(no ELF, Mach-O or PE header, no #! line\)/);
  });

  it("a Mach-O thin or universal binary is macOS's, for the CPUs it holds", () => {
    const thin = Buffer.alloc(32);
    thin.writeUInt32LE(0xfeedfacf, 0); // MH_MAGIC_64, little-endian as on disk
    thin.writeUInt32LE(0x0100000c, 4); // CPU_TYPE_ARM64
    expect(executableFormat(thin)).toEqual({ kind: "mach-o", archs: ["arm64"], machine: "arm64" });
    expect(executableMismatch(executableFormat(thin), { os: "darwin", arch: "arm64" })).toBeUndefined();
    expect(executableMismatch(executableFormat(thin), host)).toMatch(/which only macOS \(darwin\) runs/);
    const universal = Buffer.alloc(48);
    universal.writeUInt32BE(0xcafebabe, 0); // FAT_MAGIC, big-endian
    universal.writeUInt32BE(2, 4);
    universal.writeUInt32BE(0x01000007, 8); // x86_64 slice
    universal.writeUInt32BE(0x0100000c, 28); // arm64 slice
    expect(executableFormat(universal)).toMatchObject({ kind: "mach-o", archs: ["x64", "arm64"] });
    expect(executableMismatch(executableFormat(universal), { os: "darwin", arch: "x64" })).toBeUndefined();
  });

  it("a PE file is Windows's, for its machine", () => {
    const pe = Buffer.alloc(256);
    pe.write("MZ", 0, "latin1");
    pe.writeUInt32LE(0x80, 0x3c); // e_lfanew
    pe.write("PE\0\0", 0x80, "latin1");
    pe.writeUInt16LE(0x8664, 0x84); // IMAGE_FILE_MACHINE_AMD64
    expect(executableFormat(pe)).toEqual({ kind: "pe", arch: "x64", machine: "x86-64" });
    expect(executableMismatch(executableFormat(pe), { os: "win32", arch: "x64" })).toBeUndefined();
    expect(executableMismatch(executableFormat(pe), { os: "win32", arch: "arm64" })).toMatch(/not one for arm64/);
    expect(executablePlatform(executableFormat(pe))).toEqual({ os: "win32", arch: "x64" });
  });
});
