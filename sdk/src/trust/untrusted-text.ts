const MAX_TEXT = 1000;

/**
 * Text a registry sent (a yank reason, a deprecation message) made safe to print: control
 * characters (terminal escapes, carriage returns that overwrite a line) become spaces, and it is
 * cut to the registry's own limit, so a hostile registry cannot forge or flood what the user reads.
 */
export function untrustedText(value: string): string {
  const cleaned = Array.from(value, (character) => (isControl(character.codePointAt(0) ?? 0) ? " " : character))
    .join("")
    .replace(/ {2,}/g, " ")
    .trim();
  return cleaned.length > MAX_TEXT ? `${cleaned.slice(0, MAX_TEXT)}…` : cleaned;
}

/** C0 and C1 controls, DEL, line and paragraph separators, and the bidirectional overrides that reorder text. */
function isControl(code: number): boolean {
  return (
    code < 0x20 ||
    (code >= 0x7f && code <= 0x9f) ||
    code === 0x2028 ||
    code === 0x2029 ||
    (code >= 0x202a && code <= 0x202e) ||
    (code >= 0x2066 && code <= 0x2069)
  );
}
