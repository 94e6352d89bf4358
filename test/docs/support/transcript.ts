/** The wildcard a page uses in shown output: inside a line it stands for any text, alone on a line for any lines. */
export const ELLIPSIS = "…";

function lineMatches(expected: string, actual: string): boolean {
  const pattern = expected
    .split(ELLIPSIS)
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
    .join(".*");
  return new RegExp(`^${pattern}$`).test(actual);
}

/**
 * Whether `actual` output is what a page shows as `expected`: line by line, trailing spaces
 * ignored, `…` as the wildcard. Returns undefined on a match, else the first difference.
 */
export function transcriptMismatch(expected: string, actual: string): string | undefined {
  const want = expected
    .trimEnd()
    .split("\n")
    .map((line) => line.trimEnd());
  const got = actual
    .trimEnd()
    .split("\n")
    .map((line) => line.trimEnd());
  const match = (w: number, g: number): boolean => {
    if (w === want.length) return g === got.length;
    if (want[w] === ELLIPSIS) return match(w + 1, g) || (g < got.length && match(w, g + 1));
    return g < got.length && lineMatches(want[w]!, got[g]!) && match(w + 1, g + 1);
  };
  return match(0, 0) ? undefined : `expected:\n${want.join("\n")}\n\ngot:\n${got.join("\n")}`;
}
