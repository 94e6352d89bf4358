import { archiveLink } from "../catalog/present-entry.js";

export interface SnippetSubject {
  origin: string;
  toolId: string;
  version: string;
  sha256: string;
  /** A call input for the SDK snippet (from the input schema). */
  input: Record<string, unknown>;
}

export interface ToolSnippet {
  /** Also the element id the copy button points at. */
  id: string;
  label: string;
  text: string;
}

/**
 * Copy-paste snippets for one published version, pinned to it (a page names one version, and a
 * script should not change under its author when a new one is published).
 */
export function toolSnippets({ origin, toolId, version, sha256, input }: SnippetSubject): ToolSnippet[] {
  const reference = `${toolId}@${version}`;
  const entryUrl = `${origin}/tools/${encodeURIComponent(toolId)}/versions/${encodeURIComponent(version)}`;
  const file = `${toolId}-${version}.zip`;
  return [
    {
      id: "snippet-sdk",
      label: "SDK (TypeScript)",
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
      text: [
        `npx -p @agent-tools/sdk agent-tools --registry ${shellWord(origin)} get ${shellWord(reference)}`,
        `npx -p @agent-tools/sdk agent-tools --registry ${shellWord(origin)} versions ${shellWord(toolId)}`,
      ].join("\n"),
    },
    {
      id: "snippet-curl",
      label: "curl",
      text: [
        `curl -fsS ${shellWord(entryUrl)}`,
        `curl -fsSL -o ${shellWord(file)} ${shellWord(archiveLink(origin, toolId, version))}`,
        `echo ${shellWord(`${sha256}  ${file}`)} | sha256sum -c`,
      ].join("\n"),
    },
  ];
}

/** A word a POSIX shell reads back unchanged: as is when plainly safe, else single-quoted. */
export function shellWord(word: string): string {
  return /^[A-Za-z0-9@%+=:,./_-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
