/**
 * The pages' only script, inlined and allowed by its hash in the CSP. Copy buttons are rendered
 * `hidden`, so without JavaScript the snippets are plain selectable text and no dead button shows;
 * this reveals them. Each copy is said in the page's live status line (for screen readers) as well
 * as on the button. Where the Clipboard API is missing (a plain-http origin other than localhost),
 * it selects the snippet instead so the reader can press the copy key.
 */
// One line (statements joined by spaces): the Lambda bundle is kept free of multi-line strings.
export const COPY_SCRIPT = [
  'const status = document.getElementById("copy-status");',
  "const say = (text) => { if (status) status.textContent = text; };",
  'for (const button of document.querySelectorAll("button[data-copy]")) {',
  "  const source = document.getElementById(button.dataset.copy);",
  "  if (!source) continue;",
  '  const name = (document.getElementById(button.dataset.copy + "-label") || source).textContent;',
  "  button.hidden = false;",
  '  button.addEventListener("click", async () => {',
  "    try {",
  "      await navigator.clipboard.writeText(source.textContent);",
  '      button.textContent = "Copied";',
  '      say("Copied the " + name + " snippet to the clipboard.");',
  "    } catch {",
  "      getSelection().selectAllChildren(source);",
  '      button.textContent = "Selected: press Ctrl+C";',
  '      say("Selected the " + name + " snippet: press Ctrl+C (Cmd+C on a Mac) to copy it.");',
  "    }",
  '    setTimeout(() => { button.textContent = "Copy"; }, 2000);',
  "  });",
  "}",
]
  .map((line) => line.trim())
  .join(" ");
