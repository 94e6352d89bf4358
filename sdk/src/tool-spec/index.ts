export { MISSING_VERSION_WARNING, RESERVED_TOOL_IDS, TOOL_ID_PATTERN, TOOL_SPEC_SCHEMA } from "./tool-spec-schema.js";
export { DEFINITION_DIGEST_FIELDS, definitionDigest } from "./definition-digest.js";
export { SIGNATURE_FORMAT, publicKeyId, signaturePayload, type SignedVersion } from "./publisher-signature.js";
export {
  RESERVED_TOOL_NAMES,
  RESERVED_TOOL_NAME_PREFIXES,
  reservedToolIdProblem,
  reservedToolName,
  type ReservedToolName,
} from "./reserved-tool-names.js";
export { toolNameFromId } from "./tool-name.js";
export { RUNTIME_FIELDS, type RuntimeField } from "./runtime-fields.js";
