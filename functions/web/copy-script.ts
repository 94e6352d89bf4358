/**
 * The pages' only script, inlined and allowed by its hash in the CSP. Copy buttons are rendered
 * `hidden`, so without JavaScript the snippets are plain selectable text and no dead button shows;
 * this reveals them. Where the Clipboard API is missing (a plain-http origin other than
 * localhost), it selects the snippet instead so the reader can press the copy key.
 */
// One line (statements joined by spaces): the Lambda bundle is kept free of multi-line strings.
export const COPY_SCRIPT = [
  'for (const button of document.querySelectorAll("button[data-copy]")) {',
  "  const source = document.getElementById(button.dataset.copy);",
  "  if (!source) continue;",
  "  button.hidden = false;",
  '  button.addEventListener("click", async () => {',
  "    try {",
  "      await navigator.clipboard.writeText(source.textContent);",
  '      button.textContent = "Copied";',
  "    } catch {",
  "      getSelection().selectAllChildren(source);",
  '      button.textContent = "Selected: press Ctrl+C";',
  "    }",
  '    setTimeout(() => { button.textContent = "Copy"; }, 2000);',
  "  });",
  "}",
]
  .map((line) => line.trim())
  .join(" ");
