import type { ToolSnippet } from "../tool-snippets.js";

/** A snippet as selectable text; its copy button stays hidden until the page script reveals it. */
export function SnippetBlock({ snippet }: { snippet: ToolSnippet }) {
  return (
    <div class="snippet">
      <div class="bar">
        <strong>{snippet.label}</strong>
        <button type="button" class="copy" data-copy={snippet.id} hidden>
          Copy
        </button>
      </div>
      <pre>
        <code id={snippet.id}>{snippet.text}</code>
      </pre>
    </div>
  );
}
