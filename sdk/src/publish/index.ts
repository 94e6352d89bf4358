export { packTool, type PackedTool } from "./pack-tool.js";
export {
  chooseUploadPath,
  DIRECT_UPLOAD_MAX_BYTES,
  LARGE_UPLOAD_HINT,
  uploadBundle,
  type PublishedTool,
  type UploadBundleOptions,
  type UploadPath,
  type UploadTicket,
} from "./upload-bundle.js";
export { deleteTool } from "./delete-tool.js";
export { registryRequest, type RegistryRequestOptions, type RegistryWriteOptions } from "./registry-request.js";
export { BundleTransferError, PackError } from "./publish-errors.js";
