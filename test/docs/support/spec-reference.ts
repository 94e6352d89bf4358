import { TOOL_SPEC_SCHEMA } from "@agent-tools/sdk/tool-spec";
import { withGeneratedBlock } from "./generated-block.js";

/** Where the generated field reference sits in docs/authoring.md. */
export const SPEC_REFERENCE_START = "<!-- spec-reference:start (generated from TOOL_SPEC_SCHEMA by test/docs/write-spec-reference.ts) -->";
export const SPEC_REFERENCE_END = "<!-- spec-reference:end -->";

interface SchemaNode {
  type?: string;
  description?: string;
  items?: SchemaNode;
  properties?: Record<string, SchemaNode>;
  examples?: readonly unknown[];
  pattern?: string;
}

/** The spec.json field reference as a Markdown table: one row per field, nested fields by dotted path. */
export function renderSpecReference(): string {
  const rows: string[] = ["| field | type | |", "|---|---|---|"];
  const required = new Set<string>(TOOL_SPEC_SCHEMA.required);
  const visit = (path: string, node: SchemaNode) => {
    if (node.description !== undefined) {
      const type = node.type === "array" ? `list of ${node.items?.type ?? "values"}` : (node.type ?? "any");
      const notes = [
        required.has(path) ? "**required**" : "",
        node.description,
        node.pattern ? `Pattern \`${node.pattern}\`.` : "",
        node.examples ? `E.g. ${node.examples.map((example) => `\`${JSON.stringify(example)}\``).join(", ")}.` : "",
      ];
      rows.push(`| \`${path}\` | ${type} | ${notes.filter(Boolean).join(" ").replaceAll("|", "\\|")} |`);
    }
    for (const [name, child] of Object.entries(node.properties ?? {})) visit(`${path}.${name}`, child);
  };
  for (const [name, node] of Object.entries(TOOL_SPEC_SCHEMA.properties as unknown as Record<string, SchemaNode>)) visit(name, node);
  return `${SPEC_REFERENCE_START}\n${rows.join("\n")}\n${SPEC_REFERENCE_END}`;
}

/** `page` with its generated block replaced by the current reference. */
export function withSpecReference(page: string): string {
  return withGeneratedBlock(page, {
    page: "docs/authoring.md",
    start: SPEC_REFERENCE_START,
    end: SPEC_REFERENCE_END,
    render: renderSpecReference,
  });
}
