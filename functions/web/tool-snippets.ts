import { archiveLink } from "../catalog/present-entry.js";
import { sdkTarballUrl } from "../sdk-package/sdk-package.js";

export interface SnippetSubject {
  origin: string;
  toolId: string;
  version: string;
  sha256: string;
  /** A call input for the SDK and run snippets (from the input schema). */
  input: Record<string, unknown>;
  /** The SDK tarball this registry serves (`/sdk/<file>`); without one, only the curl snippet can be given. */
  sdkFile: string | undefined;
}

export interface ToolSnippet {
  /** Also the element id the copy button points at. */
  id: string;
  /** What the snippet is, shown above it and in its copy button's accessible name. */
  label: string;
  /** Where it goes, e.g. "in a terminal" or "save as example.mjs, run with node". */
  hint: string;
  text: string;
}

/**
 * Copy-paste snippets for one published version, pinned to it (a page names one version, and a
 * script should not change under its author when a new one is published). Everything installs
 * the SDK and CLI from this registry's own `/sdk/<file>`, never from a package name in the npm
 * registry that someone else could register (docs/web.md#snippets); `snippets-outside.test.ts`
 * pastes each one into a fresh folder and runs it.
 */
export function toolSnippets({ origin, toolId, version, sha256, input, sdkFile }: SnippetSubject): ToolSnippet[] {
  const reference = `${toolId}@${version}`;
  const entryUrl = `${origin}/tools/${encodeURIComponent(toolId)}/versions/${encodeURIComponent(version)}`;
  const file = `${toolId}-${version}.zip`;
  const curl: ToolSnippet = {
    id: "snippet-curl",
    label: "curl",
    hint: "in a terminal: the entry, then the archive checked against its sha256 (Linux and macOS)",
    text: [
      // -w: a newline after the JSON, so the next line of output starts on a line of its own.
      `curl -fsS -w '\\n' ${shellWord(entryUrl)}`,
      `curl -fsSL -o ${shellWord(file)} ${shellWord(archiveLink(origin, toolId, version))}`,
      `echo ${shellWord(`${sha256}  ${file}`)} | shasum -a 256 -c`,
    ].join("\n"),
  };
  if (sdkFile === undefined) return [curl];
  const tarball = sdkTarballUrl(origin, sdkFile);
  const cli = ["npx", "--yes", "-p", tarball, "agent-tools", "--registry", origin];
  return [
    {
      id: "snippet-install",
      label: "npm install",
      hint: "in your project's folder: the SDK and its agent-tools command, from this registry",
      text: `npm install ${shellWord(tarball)}`,
    },
    {
      id: "snippet-sdk",
      label: "SDK (JavaScript)",
      hint: "save as example.mjs in that folder and run node example.mjs",
      text: [
        `import { AgentTools } from "@agent-tools/sdk";`,
        ``,
        `const tools = new AgentTools({ toolsDbUrl: ${JSON.stringify(origin)} });`,
        `await tools.add(${JSON.stringify(reference)});`,
        `const result = await tools.executeToolById(${JSON.stringify(toolId)}, ${JSON.stringify(input)});`,
        `console.log(result);`,
        `await tools.close();`,
      ].join("\n"),
    },
    {
      id: "snippet-cli",
      label: "CLI",
      hint: "in a terminal, nothing installed first: run it once, show its entry and its versions",
      text: [
        [...cli, "run", reference, "--input", JSON.stringify(input)].map(shellWord).join(" "),
        [...cli, "get", reference].map(shellWord).join(" "),
        [...cli, "versions", toolId].map(shellWord).join(" "),
      ].join("\n"),
    },
    {
      id: "snippet-mcp",
      label: "MCP host config",
      hint: "in your MCP host's servers file (Claude Desktop, Cursor, …); you are asked, through the host, before the tool runs",
      text: mcpHostConfig(toolId, ["--yes", "-p", tarball, "agent-tools", "mcp", "--registry", origin, reference]),
    },
    curl,
  ];
}

/** `mcpServers` as hosts' config files hold it, the arguments on one line so the command reads as one. */
function mcpHostConfig(name: string, args: string[]): string {
  return [
    "{",
    `  "mcpServers": {`,
    `    ${JSON.stringify(name)}: {`,
    `      "command": "npx",`,
    `      "args": [${args.map((arg) => JSON.stringify(arg)).join(", ")}]`,
    "    }",
    "  }",
    "}",
  ].join("\n");
}

/** A word a POSIX shell reads back unchanged: as is when plainly safe, else single-quoted. */
export function shellWord(word: string): string {
  return /^[A-Za-z0-9@%+=:,./_-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
