// `@agent-tools/sdk/sandbox`: the OS sandbox registry tools run in, and their capabilities (docs/sandbox.md).
export {
  MAX_CAPABILITIES_PER_KIND,
  noCapabilities,
  readToolCapabilities,
  toolCapabilityProblems,
  type FilesystemCapability,
  type ToolCapabilities,
} from "./capabilities/tool-capabilities.js";
export {
  CAPABILITY_TOOL_NAME,
  type CapabilityAnswer,
  type CapabilityAsker,
  type CapabilityRequest,
} from "./capabilities/capability-grants.js";
export { BubblewrapPlatform } from "./bubblewrap-platform.js";
export { DEFAULT_RESOURCE_LIMITS, resolveResourceLimits, type ResourceLimits } from "./resource-limits.js";
export type { Denial, ToolFailure } from "./sandbox-denial.js";
export { CapabilityPathRefusedError, SandboxDeniedError, SandboxUnavailableError } from "./sandbox-errors.js";
export type { SandboxPlatform, SandboxSupport } from "./sandbox-platform.js";
export { SANDBOX_MODES, sandboxSupport, type SandboxChoice, type SandboxMode } from "./sandbox-preflight.js";
export type { HiddenPath, SandboxedCommand, SandboxNetwork, SandboxProfile } from "./sandbox-profile.js";
export type { SandboxErrorCode } from "../error-codes.js";
