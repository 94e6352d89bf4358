import { STORAGE_ANSWERS } from "../../../functions/http/storage-answers.js";
import { ERROR_CODES } from "../../../sdk/src/error-codes.js";

/** Where each area's codes come from: the error classes that carry them. */
const AREA_CLASSES: Record<keyof typeof ERROR_CODES, string> = {
  sdk: "`AgentToolsError`, `ToolFileError` (`TOOL_FILE_UNSAFE`)",
  registry:
    "`RegistryError` (its `code` from the registry's answer: the body's `code`, else " +
    "its status), `ToolNotFoundError`, `RegistryUnavailableError`, `RegistryUrlError`",
  publish: "`PackError`, `ToolCheckError` (with `problems`), `BundleTransferError`",
  archive: "`ArchiveError`, `ArchiveIntegrityError`",
  runtimes:
    "`ToolLoadError`, `ToolExecutionError`, `ToolInputError`, `ToolInputInvalidError`, `ToolPlatformError`, " +
    "`ToolOutputError`, `ToolTimeoutError`, `ToolCrashedError`, `ToolEnvironmentError`, `ToolClosedError`",
  sandbox: "`SandboxUnavailableError`, `SandboxDeniedError`",
  workspace: "`WorkspaceError` (workspaces: docs/workspaces.md)",
  permission: "`PermissionRuleError`, `PermissionModeError`, `PermissionSettingsError`",
  tool: "`ToolError`",
  toolkit: "`ToolkitError` (the program misused the Toolkit)",
  toolCall: "`ToolCallError` (the LLM's call cannot run; it becomes an error result)",
  search: "`ToolSearchError` and its subclasses",
  mcp: "`McpServerError`",
  skills: "`SkillError`",
  trust: "`TrustError`, `ToolYankedError` (publisher trust: docs/sdk.md#publisher-trust)",
  cli: "`agent-tools` (the `code` of `--json` errors)",
};

/** The registry's answers when storage fails, from `STORAGE_ANSWERS` (functions/http/storage-answers.ts). */
function storageAnswersSection(): string {
  const rows = Object.entries(STORAGE_ANSWERS).map(
    ([error, answer]) => `| ${answer.status} | \`${error}\` | ${answer.retryAfterSeconds} s | ${answer.meaning} |`,
  );
  return `## registry storage

Answered by the registry on any route when its storage, not the request, fails: JSON \`{"error", "detail"}\`
with \`Retry-After\` (generated from \`functions/http/storage-answers.ts\`). The SDK raises a 503 on reads as
\`REGISTRY_UNAVAILABLE\` and everything else as a \`RegistryError\` (\`REGISTRY_ERROR\` for these), whose \`status\`,
\`error\` and \`detail\` hold the answer; every other answer of the registry is described in [Registry](registry.md#errors).

| status | \`error\` | \`Retry-After\` | meaning |
|---|---|---|---|
${rows.join("\n")}
`;
}

/** docs/errors.md, generated from `ERROR_CODES` (one table per area, every code once) and the registry's storage answers. */
export function renderErrorCodesPage(): string {
  const sections = Object.entries(ERROR_CODES).map(([area, codes]) => {
    const rows = Object.entries(codes).map(([code, meaning]) => `| \`${code}\` | ${meaning} |`);
    return (
      `## ${area}\n\nThrown as ${AREA_CLASSES[area as keyof typeof ERROR_CODES]}.\n\n| ` +
      `code | meaning |\n|---|---|\n${rows.join("\n")}\n`
    );
  });
  return `# Error codes

Every error the SDK throws is an \`AgentToolsError\` whose \`code\` is one of these: stable,
machine-readable, and meaning one thing. \`message\` says what went wrong and how to fix it. The
registry's HTTP errors are described in [Registry](registry.md).

\`\`\`js
import { AgentTools, AgentToolsError } from "@agent-tools/sdk";

try {
  await new AgentTools({ toolsDbUrl: "http://127.0.0.1:6000" }).executeToolById("no-such-tool", {});
} catch (error) {
  if (error instanceof AgentToolsError && error.code === "TOOL_NOT_FOUND") console.error(error.message);
}
\`\`\`

This page is generated from \`sdk/src/error-codes.ts\` and \`functions/http/storage-answers.ts\`
(\`npx tsx test/docs/write-error-codes.ts\`).

${sections.join("\n")}
${storageAnswersSection()}`;
}
