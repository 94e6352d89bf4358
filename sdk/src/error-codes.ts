/**
 * Every `code` an `AgentToolsError` can carry, by area, each with what it means. Codes are
 * UPPER_SNAKE, stable, and mean one thing: a test checks that no code is listed twice, and
 * `docs/errors.md` is generated from this table (`npx tsx test/docs/write-error-codes.ts`).
 */
export const ERROR_CODES = {
  sdk: {
    INVALID_PARAMETERS: "`add` or `executeToolById` got parameters that are not a plain JSON object.",
    TOOL_NOT_ADDED: "The tool id was never added to this `AgentTools` (or was removed).",
    REGISTRY_NOT_CONFIGURED: "The operation needs a registry and no `toolsDbUrl` was given.",
    LOCAL_TOOL_NOT_FOUND: "A local tool path cannot be read (pass a tool folder, its `code/` folder or a `tool.zip`).",
    LOCAL_SPEC_INVALID: "A local tool's `spec.json` is not valid JSON or not an object.",
    TOOL_FILE_UNSAFE:
      "A file the SDK reads in a tool's folder (`spec.json`, `requirements.txt`, `SKILL.md`, ...) leads " +
      "outside the folder through a link, or is not a regular file, or is too large; nothing was read.",
  },
  registry: {
    REGISTRY_ERROR: "The registry answered with an error; `status`, `error` and `detail` hold its answer.",
    TOOL_NOT_FOUND: "The registry has no tool (or version) with this id.",
    REGISTRY_UNAVAILABLE: "The registry could not be reached, timed out, or answered with a gateway error.",
    REGISTRY_ENTRY_INVALID:
      "The registry answered an entry whose tool id, version, archive digest or owner " +
      "is not well formed, or another tool's entry; nothing of it touched the disk.",
    REGISTRY_URL_INVALID:
      "The registry URL is not the registry's base URL: not http(s), or it " +
      "names a route such as `/tools` (use `http://host:port`, without `/tools`).",
    VERSION_EXISTS:
      "The `(tool_id, version)` is already published and published versions " +
      "never change: raise `tool_metadata.version`, or delete that version first.",
    INVALID_SPEC:
      "The registry refused spec.json; `detail` lists every problem with its path (`agent-tools pack` finds them before uploading).",
    INVALID_ARCHIVE:
      "The registry refused a tool archive (`tool.zip` or a platform's): its layout, " +
      "an unsafe entry, or an executable built for another platform than it declares.",
    INVALID_BUNDLE: "The upload is not a bundle the registry can read: not a zip, files missing or extra at its root, tool.md not UTF-8.",
    REGISTRY_UNAUTHORIZED: "The registry refused the write token: missing, wrong, expired or revoked (HTTP 401).",
    REGISTRY_FORBIDDEN:
      "The token may not do this: an id outside its scope, an action not granted, a tool another publisher owns (HTTP 403).",
    REGISTRY_CONFLICT: "Another write to the same tool or version ran at the same time (HTTP 409): retry.",
    REGISTRY_TOO_LARGE: "The request is over one of the registry's limits: a bundle, an entry or a JSON body (HTTP 413).",
    REGISTRY_RATE_LIMITED: "Too many writes from this publisher token (HTTP 429): retry after `Retry-After`.",
  },
  publish: {
    PACK_INVALID: "A tool folder cannot be packed: its layout or `spec.json` is wrong.",
    TOOL_CHECK_FAILED:
      "Checks before publishing found problems in a tool folder (spec.json by the registry's rules, " +
      "Python syntax, an executable against its platform); `problems` lists each with its file.",
    BUNDLE_TRANSFER_FAILED: "Uploading a bundle failed on the way (storage or network), not by the registry's verdict.",
    BUNDLE_SIGNING_FAILED:
      "A bundle cannot be signed: the key is not an ed25519 private key, or the bundle lacks a readable spec.json, tool.md or tool.zip.",
  },
  archive: {
    ARCHIVE_UNSUPPORTED_FORMAT: "The archive is neither zip, tar nor gzipped tar.",
    ARCHIVE_CORRUPT: "The archive is truncated, fails a checksum, or inflates to another size than it declares.",
    ARCHIVE_UNSUPPORTED_FEATURE: "The archive uses a feature the reader refuses (encryption, multi-disk, an unknown compression).",
    ARCHIVE_PATH_INVALID: "An entry's path is empty or not valid text.",
    ARCHIVE_PATH_ABSOLUTE: "An entry's path is absolute.",
    ARCHIVE_PATH_TRAVERSAL: "An entry's path climbs out with `..` (zip slip).",
    ARCHIVE_PATH_BACKSLASH: "An entry's path holds a backslash.",
    ARCHIVE_PATH_CONFLICT: "Two entries need the same path as a file and as a folder.",
    ARCHIVE_DUPLICATE_PATH: "Two entries have the same path.",
    ARCHIVE_ENTRY_TYPE: "An entry is a device, fifo or another type that is not a file, folder or link.",
    ARCHIVE_LINK_ESCAPE: "A link leads outside the tool's folder, resolved as the system will (every link on the way followed).",
    ARCHIVE_LINK_LOOP: "A chain of links never ends: a loop, or more than 40 links, which the system refuses.",
    ARCHIVE_OUTSIDE_CODE: "A tool archive holds files outside `code/`.",
    ARCHIVE_NO_CODE_FOLDER: "A tool archive has no `code/` folder.",
    ARCHIVE_TOO_MANY_ENTRIES: "More entries than the limit allows.",
    ARCHIVE_ENTRY_TOO_LARGE: "One entry is larger than the limit allows.",
    ARCHIVE_TOTAL_TOO_LARGE: "The entries together are larger than the limit allows.",
    ARCHIVE_COMPRESSION_RATIO: "An entry inflates more than the limit allows (a zip bomb).",
    ARCHIVE_PYTHON_ENTRY_MISSING: "A Python tool has no `code/function.py`.",
    ARCHIVE_BINARY_MISSING: "A binary tool has no executable in `code/`.",
    ARCHIVE_BINARY_SEVERAL: "A binary tool has more than one executable in `code/`.",
    ARCHIVE_BINARY_NOT_EXECUTABLE: "A binary tool's file in `code/` lacks the executable bit.",
    ARCHIVE_HASH_MISMATCH: "Downloaded archive bytes do not match the sha256 the entry names.",
    ARCHIVE_PATH_ESCAPE: "An entry would be written outside the extraction folder.",
  },
  runtimes: {
    TOOL_LOAD_FAILED: "A tool could not be loaded (its code, requirements or interpreter).",
    TOOL_EXECUTION_FAILED: "The tool ran and reported a failure.",
    TOOL_INPUT_NOT_SERIALISABLE: "The input cannot be sent to the tool as JSON.",
    TOOL_INPUT_INVALID: "The input does not match the tool's input schema (`tool_api_spec.entrypoints.execute.input`); nothing ran.",
    TOOL_PLATFORM_UNSUPPORTED:
      "The tool has no archive for this host's OS and architecture, or its executable is built for another (the message names both).",
    TOOL_OUTPUT_INVALID: "The tool's answer is not usable (not JSON, or not the expected shape).",
    TOOL_TIMEOUT: "The call took longer than its timeout; the tool's processes were stopped.",
    TOOL_CRASHED: "The tool's process died during the call.",
    TOOL_ENVIRONMENT_FAILED: "The tool's environment (virtual environment, interpreter) could not be prepared.",
    TOOL_CLOSED: "The tool was removed or its `AgentTools` closed.",
  },
  sandbox: {
    SANDBOX_UNAVAILABLE: '`sandbox: "required"` and no sandbox works on this machine (the message says why and how to fix it).',
    SANDBOX_DENIED: "The sandbox stopped the tool: it lacks a capability (`capability` names it).",
    CAPABILITY_PATH_REFUSED:
      "A filesystem capability names, on its real path, the root, a home folder, `/proc`, " +
      "`/sys`, `/dev`, a secret location or one of the SDK's own folders; no tool is granted it.",
    SANDBOX_FILTER_UNAVAILABLE:
      "The sandbox's system-call filter cannot be prepared: no table for this CPU architecture, " +
      "or an unsafe folder for its file (the message says which and how to fix it).",
  },
  workspace: {
    WORKSPACE_NOT_INITIALIZED: "`getBackend()` was called before `await workspace.initialize()`.",
    WORKSPACE_CLOSED: "The workspace was closed: its backend no longer runs commands or touches files.",
    WORKSPACE_PROJECT_MISSING: "The workspace's project folder does not exist or is not a folder.",
    WORKSPACE_OPTIONS_INVALID: "A workspace option is malformed (the message names it and what it accepts).",
    WORKSPACE_OPERATION_FAILED:
      "A file operation or a background start inside the workspace failed (a " +
      "missing file, a permission, a full disk); the message quotes the cause.",
    DOCKER_ENGINE_UNAVAILABLE: "The Docker Engine API cannot be reached at the socket or URL the workspace uses.",
    DOCKER_ENGINE_ERROR: "The Docker Engine answered an error; `status` and the message hold its answer.",
  },
  permission: {
    INVALID_PERMISSION_RULE: "A permission rule cannot be parsed.",
    INVALID_PERMISSION_CONFIG: "An unknown mode, or an engine call missing what it needs.",
    INVALID_PERMISSION_SETTINGS: "Settings files (or code settings) have problems; `issues` lists them.",
  },
  tool: {
    TOOL_NAME_MISSING: "A tool has no name.",
    TOOL_SCHEMA_INVALID: "A tool's input schema is not a JSON Schema object.",
    TOOL_UNDESCRIBED:
      'A `FunctionTool` with `undescribed: "refuse"` has no description or ' +
      "no input schema, so the model would not know what it does or takes.",
    TOOL_OPTIONS_INVALID: "A tool's constructor got an option value it does not accept (the message lists the accepted ones).",
    TOOL_CHUNK_MISMATCH: "Chunks of one response cannot be merged (a URL block extended).",
    BUILTIN_TOOL_UNKNOWN: "No built-in tool has this name.",
    TOOL_NOT_CALLABLE: "A tool has no `call()` (implement it, or mark the tool external so the host runs it).",
    REGISTRY_TOOL_NOT_ADDED: "A registry tool was used in a Toolkit before it was added to `AgentTools`.",
    REGISTRY_TOOL_IS_SKILL:
      'A registry skill (`tool_type: "skill"`) was wrapped as a callable tool; skills are offered through the `Skill` tool.',
  },
  toolkit: {
    EXECUTOR_WAITING: "`run()` was called while the executor waits for confirmations or external results.",
    EXECUTOR_UNEXPECTED_ANSWER: "`resume()` got an answer for a call that is not waiting for one.",
    TOOL_GROUP_DUPLICATE: "Two tool groups have the same name.",
    TOOL_GROUP_NAME: "A tool group's name is not valid.",
    TOOL_GROUP_RESERVED: "A tool group uses a reserved name.",
    TOOL_NAME_RESERVED:
      "A tool other than the SDK's own takes a reserved name (a built-in's, " +
      "`Skill`, `reset_tools`, `Capability`, the `mcp__` prefix), case-insensitively.",
    TOOL_NAME_COLLISION:
      "Two tools of one Toolkit have the same name (case-insensitively), or two MCP server collections name the same server.",
  },
  toolCall: {
    TOOL_NOT_IN_TOOLKIT: "The LLM called a tool the Toolkit does not have.",
    TOOL_GROUP_INACTIVE: "The LLM called a tool of an inactive group (activate it with `reset_tools`).",
    TOOL_GROUP_NOT_FOUND: "No tool group has this name.",
    TOOL_CALL_INPUT_NOT_JSON: "The LLM's tool input is not valid JSON.",
    TOOL_CALL_INPUT_NOT_OBJECT: "The LLM's tool input is JSON but not an object.",
    TOOL_CALL_INPUT_INVALID: "The LLM's tool input does not match the tool's schema.",
    PERMISSION_CHECK_FAILED: "Checking the call's permission threw.",
    INVALID_CONFIRMATION: "A user confirmation could not be applied (an edited call that is not valid).",
  },
  search: {
    SEARCH_NO_API_KEY: "No OpenAI key: neither `openaiApiKey` nor `OPENAI_API_KEY`.",
    SEARCH_NO_CANDIDATES: "There are no tools to choose from.",
    SEARCH_NO_TOOL_CALL: "The model answered without choosing a tool.",
    SEARCH_UNKNOWN_FUNCTION: "The model chose a function that was not offered.",
    SEARCH_INVALID_ARGUMENTS: "The model's arguments for the chosen tool are not a JSON object.",
    SEARCH_API_ERROR: "The OpenAI-compatible server answered with an error.",
    SEARCH_INVALID_INPUT: "`searchAndExecuteTool` input is not a plain object.",
  },
  mcp: {
    MCP_CONFIG_INVALID: "An MCP server configuration is not valid.",
    MCP_SERVER_NAME: "An MCP server name is not valid.",
    MCP_SERVER_UNKNOWN: "No MCP server has this name.",
    MCP_SERVER_UNAVAILABLE: "The MCP server is not connected (yet, or any more).",
    MCP_SERVER_FAILED: "The MCP server could not be started or connected.",
    MCP_SERVER_DISCONNECTED: "The MCP server went away during a call.",
    MCP_CALL_FAILED: "The MCP server answered the call with an error.",
  },
  skills: {
    SKILL_FOLDER_MISSING: "The skills folder does not exist.",
    SKILL_FILE_MISSING: "A skill folder has no `SKILL.md`.",
    SKILL_FRONT_MATTER_MISSING: "`SKILL.md` has no front matter.",
    SKILL_FRONT_MATTER_INVALID: "`SKILL.md`'s front matter is not valid YAML or not an object.",
    SKILL_FRONT_MATTER_TOO_LARGE: "`SKILL.md`'s front matter is larger than the limit.",
    SKILL_NAME_INVALID: "A skill's name is missing or not valid.",
    SKILL_DESCRIPTION_INVALID: "A skill's description is missing or too long.",
    SKILL_DUPLICATE: "Two skills have the same name.",
    SKILL_TOO_LARGE: "A skill's files are larger than the limit.",
    SKILL_NOT_UTF8: "A skill's text is not UTF-8.",
  },
  trust: {
    TOOL_YANKED: "The version was yanked by its publisher and not pinned exactly (`id@1.2.3` runs it).",
    TOOL_STATUS_INVALID: "The entry's `status` or `status_message` is not what a registry sends.",
    NO_RELEASE_OLD_ENOUGH: "`minReleaseAgeHours` left no version to run.",
    TRUST_OPTIONS_INVALID: "A publisher-trust option of `AgentTools` is malformed (`minReleaseAgeHours`, `trustedKeys`).",
    SIGNATURE_REQUIRED: "The version is not signed, and `requireSignatures` is on or `trustedKeys` names its publisher.",
    SIGNATURE_MALFORMED: "The entry's `signature` (or the `owner` and archive digest it needs) is not well formed.",
    SIGNATURE_INVALID: "The signature does not verify: the entry or archive digest changed after signing.",
    SIGNATURE_KEY_UNKNOWN: "Signed by a key the owner has not registered (or the owner's keys could not be fetched).",
    SIGNATURE_KEY_REVOKED: "Signed by a key the owner has revoked.",
    SIGNATURE_KEY_UNTRUSTED: "Signed by a key that is not among the `trustedKeys` configured for the owner.",
    PUBLISHER_KEY_CHANGE_REFUSED: "The owner signs with a key other than the pinned ones, and the user did not accept it.",
    DEFINITION_CHANGE_REFUSED:
      "The tool's name, description, input schema, capabilities, publisher, signature or configuration " +
      "(parameters, metadata, settings) changed since it was approved, and the user did not accept it.",
  },
  cli: {
    CLI_USAGE: "The command line is wrong (unknown option, missing argument).",
    CLI_CANCELLED: "The user cancelled an interactive prompt.",
    CLI_UNEXPECTED: "An unexpected failure (a bug: please report it).",
    TRUST_PIN_NOT_FOUND: "`trust forget` named a tool or publisher with nothing pinned for that registry and cache folder.",
    GRANT_NOT_FOUND: "`permissions revoke` named an allow rule that no user, project or local settings file holds.",
    DOCTOR_FINDINGS: "`registry doctor` found problems (that `--fix` could not repair).",
    SMOKE_FAILED: "`registry smoke` found a step of the deployment check failing (each step's line says which and why).",
  },
} as const;

type Codes<Area extends keyof typeof ERROR_CODES> = keyof (typeof ERROR_CODES)[Area];

export type SdkErrorCode = Codes<"sdk">;
export type RegistryErrorCode = Codes<"registry">;
export type PublishErrorCode = Codes<"publish">;
export type ArchiveErrorCode = Codes<"archive">;
export type RuntimeErrorCode = Codes<"runtimes">;
export type SandboxErrorCode = Codes<"sandbox">;
export type WorkspaceErrorCode = Codes<"workspace">;
export type PermissionErrorCode = Codes<"permission">;
export type ToolErrorCode = Codes<"tool">;
export type ToolkitErrorCode = Codes<"toolkit">;
export type ToolCallErrorCode = Codes<"toolCall">;
export type SearchErrorCode = Codes<"search">;
export type McpServerErrorCode = Codes<"mcp">;
export type SkillErrorCode = Codes<"skills">;
export type CliErrorCode = Codes<"cli">;
export type TrustErrorCode = Codes<"trust">;

/** Any code an `AgentToolsError` carries. */
export type AgentToolsErrorCode = { [Area in keyof typeof ERROR_CODES]: Codes<Area> }[keyof typeof ERROR_CODES];
