export { MISSING_VERSION_WARNING, RESERVED_TOOL_IDS, TOOL_ID_PATTERN, TOOL_SPEC_SCHEMA } from "./tool-spec-schema.js";
export { DEFINITION_DIGEST_FIELDS, DIGESTED_WHEN_PRESENT, definitionDigest } from "./definition-digest.js";
export { SIGNATURE_FORMAT, publicKeyId, signaturePayload, type SignedVersion } from "./publisher-signature.js";
export {
  MAX_VERSION_LENGTH,
  describeSpecProblems,
  fieldTypeProblems,
  specProblems,
  versionProblem,
  type SpecProblem,
} from "./spec-problems.js";
export { isReservedToolId, toolIdProblem, toolIdSpecProblem } from "./tool-id-rules.js";
export { INPUT_SCHEMA_PATH, inputSchemaProblem } from "./input-schema-problem.js";
export { describeValue, isPlainObject } from "./value-description.js";
export {
  MAX_TOOL_PLATFORMS,
  PLATFORMS_FOLDER,
  PLATFORM_ARCH,
  PLATFORM_LIBC,
  PLATFORM_OS,
  hostPlatform,
  platformArchiveName,
  platformFits,
  platformKey,
  type PlatformArchive,
  type PlatformArch,
  type PlatformLibc,
  type PlatformOs,
  type ToolPlatform,
} from "./tool-platforms.js";
export {
  EXECUTABLE_HEAD_BYTES,
  describeExecutable,
  executableFormat,
  executableMismatch,
  executablePlatform,
  type ExecutableFormat,
} from "./executable-format.js";
export { archiveDigest, platformArchives, type ArchiveDigest } from "./archive-digest.js";
export {
  RESERVED_TOOL_NAMES,
  RESERVED_TOOL_NAME_PREFIXES,
  reservedToolIdProblem,
  reservedToolName,
  type ReservedToolName,
} from "./reserved-tool-names.js";
export { toolNameFromId } from "./tool-name.js";
export { RUNTIME_FIELDS, type RuntimeField } from "./runtime-fields.js";
