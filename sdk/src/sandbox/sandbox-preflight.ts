import { BubblewrapPlatform } from "./bubblewrap-platform.js";
import { SandboxUnavailableError } from "./sandbox-errors.js";
import type { SandboxPlatform, SandboxSupport } from "./sandbox-platform.js";

/**
 * `auto` (the default): sandbox when the preflight shows it works, otherwise warn once and run
 * unsandboxed. `required`: refuse to run without it. `off`: never sandbox (explicit).
 */
export type SandboxMode = "auto" | "required" | "off";

export const SANDBOX_MODES: readonly SandboxMode[] = ["auto", "required", "off"];

/** Where a sandbox decision ends: the platform to use, or none (with the reason when `auto` fell back). */
export type SandboxChoice = { sandboxed: true; platform: SandboxPlatform } | { sandboxed: false; reason: string | undefined };

/** Throws a TypeError naming the valid modes when `mode` is none of them. */
export function checkSandboxMode(mode: unknown): asserts mode is SandboxMode {
  if (!SANDBOX_MODES.includes(mode as SandboxMode)) {
    throw new TypeError(`sandbox must be one of ${SANDBOX_MODES.map((m) => `"${m}"`).join(", ")}, got ${JSON.stringify(mode)}.`);
  }
}

const supportCache = new Map<SandboxPlatform, SandboxSupport>();
const warned = new Set<string>();

/** The platform for this OS; undefined where none is built yet (macOS seatbelt can follow). */
export function defaultSandboxPlatform(): SandboxPlatform | undefined {
  return process.platform === "linux" ? linuxPlatform : undefined;
}
const linuxPlatform = new BubblewrapPlatform();

/** The preflight, run once per platform and process (a trial sandbox costs a few milliseconds). */
export function sandboxSupport(platform: SandboxPlatform | undefined = defaultSandboxPlatform()): SandboxSupport {
  if (platform === undefined) {
    return {
      available: false,
      platform: process.platform,
      reason: `no sandbox backend exists for ${process.platform} yet (Linux uses bubblewrap)`,
      fix: 'run on Linux, or pass sandbox: "off" to acknowledge running unsandboxed',
    };
  }
  let support = supportCache.get(platform);
  if (support === undefined) {
    support = platform.probe();
    supportCache.set(platform, support);
  }
  return support;
}

/**
 * Applies a mode to the preflight: `required` throws `SandboxUnavailableError` with the reason
 * and fix, `auto` warns once per reason through `warn` (default `console.warn`) and falls back.
 */
export function chooseSandbox(
  mode: SandboxMode,
  what: string,
  options: { platform?: SandboxPlatform | undefined; warn?: ((message: string) => void) | undefined } = {},
): SandboxChoice {
  checkSandboxMode(mode);
  if (mode === "off") return { sandboxed: false, reason: undefined };
  const platform = options.platform ?? defaultSandboxPlatform();
  const support = sandboxSupport(platform);
  if (support.available && platform !== undefined) return { sandboxed: true, platform };
  const reason = support.available ? "no sandbox platform" : support.reason;
  const fix = support.available ? "" : support.fix;
  if (mode === "required") throw new SandboxUnavailableError(what, reason, fix);
  const message =
    `agent-tools: ${what} run WITHOUT a sandbox: ${reason}. To fix: ${fix}. Pass ` +
    `sandbox: "required" to refuse instead, or "off" to silence this warning.`;
  if (!warned.has(message)) {
    warned.add(message);
    (options.warn ?? console.warn)(message);
  }
  return { sandboxed: false, reason };
}
