// `@agent-tools/sdk/capabilities`: the capability manifest a tool declares (docs/sandbox.md), shared with the registry's validation.
export {
  MAX_CAPABILITIES_PER_KIND,
  networkTargets,
  noCapabilities,
  readToolCapabilities,
  toolCapabilityProblems,
  type FilesystemCapability,
  type ToolCapabilities,
} from "./tool-capabilities.js";
