// `@agent-tools/sdk/runtimes`: the Python and binary runtimes that run a tool's code (docs/sdk.md).
export { BinaryToolRuntime, type BinaryToolOptions } from "./binary/binary-runtime.js";
export { resolvePythonInterpreter, type PythonInterpreter } from "./python/python-interpreter.js";
export { PythonToolRuntime, type PythonToolOptions } from "./python/python-runtime.js";
export {
  ToolClosedError,
  ToolCrashedError,
  ToolEnvironmentError,
  ToolExecutionError,
  ToolInputError,
  ToolInputInvalidError,
  ToolOutputError,
  ToolTimeoutError,
} from "./runtime-errors.js";
export { ToolLoadError, type PythonErrorInfo } from "../tool-load-error.js";
export { ToolPlatformError } from "../tool-platform-error.js";
export type { ToolOutputListener, ToolRuntime } from "./tool-runtime.js";
export type { RuntimeErrorCode } from "../error-codes.js";
