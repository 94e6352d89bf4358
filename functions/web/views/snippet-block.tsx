import type { ToolSnippet } from "../tool-snippets.js";

/**
 * A snippet as selectable text. Its copy button stays hidden until the page script reveals it,
 * and is named after its snippet ("Copy the CLI snippet"), so a screen reader's list of buttons
 * tells them apart; the page's status line announces each copy.
 */
export function SnippetBlock({ snippet }: { snippet: ToolSnippet }) {
  return (
    <div class="snippet">
      <div class="bar">
        <strong id={`${snippet.id}-label`}>{snippet.label}</strong>
        <button type="button" class="copy" data-copy={snippet.id} aria-label={`Copy the ${snippet.label} snippet`} hidden>
          Copy
        </button>
      </div>
      <p class="muted hint">{snippet.hint}</p>
      <pre>
        <code id={snippet.id}>{snippet.text}</code>
      </pre>
    </div>
  );
}
