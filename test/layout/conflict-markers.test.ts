// No merge-conflict markers in a tracked file: a half-resolved merge once left one in CHANGELOG.md,
// where neither the type checker nor the formatter looks.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

const MARKER = /^(<{7} \S|>{7} \S|={7}$)/m;

describe("tracked files", () => {
  it("hold no merge-conflict markers", () => {
    const files = execFileSync("git", ["ls-files", "-z"], { encoding: "utf8" }).split("\0").filter(Boolean);
    expect(files.length).toBeGreaterThan(100);
    expect(MARKER.test(["text", `${"<".repeat(7)} HEAD`, "ours"].join("\n"))).toBe(true);
    const marked = files.filter((file) => {
      if (!/\.(ts|tsx|md|json|jsonc|py|c|sh|txt|yml|yaml)$|(^|\/)run$/.test(file)) return false;
      try {
        return MARKER.test(readFileSync(file, "utf8"));
      } catch {
        return false;
      }
    });
    expect(marked).toEqual([]);
  });
});
