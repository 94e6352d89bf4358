import { randomBytes } from "node:crypto";

/** A unique random string planted in one secret (a file, a variable, a descriptor), and where. */
export interface Canary {
  value: string;
  /** What holds it: `~/.aws/credentials`, `env:GITHUB_TOKEN`, `fd:40`. */
  origin: string;
}

/** A fresh canary; the random part is long enough that it cannot appear by chance. */
export function newCanary(origin: string): Canary {
  return { value: `cnry${randomBytes(12).toString("hex")}`, origin };
}

/**
 * Every spelling of a canary a command could print without decoding it: as planted, in hex, and in
 * base64 at each of the three byte alignments it can have inside a longer text (`base64 ~/.netrc`).
 */
function spellings(value: string): string[] {
  const bytes = Buffer.from(value);
  const base64 = [0, 1, 2].map((offset) => {
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString("base64");
    // Keep only the characters whose six bits all come from the canary (not from its neighbours).
    return encoded.slice(Math.ceil((offset * 4) / 3), Math.floor(((offset + bytes.length) * 4) / 3));
  });
  return [value, bytes.toString("hex"), ...base64];
}

/** Finds canaries in texts by any of their spellings. */
export class CanaryDetector {
  private readonly patterns: { canary: Canary; spellings: string[] }[];

  constructor(canaries: readonly Canary[]) {
    this.patterns = canaries.map((canary) => ({ canary, spellings: spellings(canary.value) }));
  }

  /** The canaries any of `texts` contains. */
  found(...texts: string[]): Canary[] {
    return this.patterns
      .filter(({ spellings }) => texts.some((text) => spellings.some((spelling) => text.includes(spelling))))
      .map(({ canary }) => canary);
  }
}
