import type { SandboxedCommand, SandboxProfile } from "./sandbox-profile.js";

/** The outcome of a preflight: the sandbox works here, or why not and how to fix it. */
export type SandboxSupport =
  | { available: true; platform: string; version: string; notes: string[] }
  | { available: false; platform: string; reason: string; fix: string };

/**
 * One operating system's sandbox mechanism. Linux uses bubblewrap (`bubblewrap-platform.ts`); a
 * macOS seatbelt backend would implement the same two methods.
 */
export interface SandboxPlatform {
  readonly name: string;
  /** Tries a real sandboxed process once; cheap enough to run at first use (a few milliseconds). */
  probe(): SandboxSupport;
  /** The command line that runs `argv` under `profile`. */
  wrap(profile: SandboxProfile, argv: string[]): SandboxedCommand;
}
