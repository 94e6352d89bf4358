/**
 * A unified diff (3 lines of context) of one changed region: common leading and trailing lines
 * are trimmed and the rest is one hunk. Not minimal for scattered edits, always correct.
 */
export function unifiedDiff(before: string | undefined, after: string, path: string): string {
  const oldLines = before === undefined ? [] : splitLines(before);
  const newLines = splitLines(after);
  let start = 0;
  while (start < oldLines.length && start < newLines.length && oldLines[start] === newLines[start]) start += 1;
  let endOld = oldLines.length;
  let endNew = newLines.length;
  while (endOld > start && endNew > start && oldLines[endOld - 1] === newLines[endNew - 1]) {
    endOld -= 1;
    endNew -= 1;
  }
  const header = `--- ${before === undefined ? "/dev/null" : `a/${path}`}\n+++ b/${path}\n`;
  if (start === endOld && start === endNew) return header;
  const context = 3;
  const from = Math.max(0, start - context);
  const toOld = Math.min(oldLines.length, endOld + context);
  const toNew = Math.min(newLines.length, endNew + context);
  const lines = [
    ...oldLines.slice(from, start).map((line) => ` ${line}`),
    ...oldLines.slice(start, endOld).map((line) => `-${line}`),
    ...newLines.slice(start, endNew).map((line) => `+${line}`),
    ...oldLines.slice(endOld, toOld).map((line) => ` ${line}`),
  ];
  const oldCount = toOld - from;
  const newCount = toNew - from;
  return (
    `${header}@@ -${oldCount === 0 ? from : from + 1},${oldCount} ` +
    `+${newCount === 0 ? from : from + 1},${newCount} @@\n${lines.join("\n")}\n`
  );
}

function splitLines(text: string): string[] {
  if (text === "") return [];
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  return lines;
}
