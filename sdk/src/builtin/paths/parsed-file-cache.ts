import { readFileSync } from "node:fs";
import { fileStat } from "../../permission/working-directories.js";

/**
 * Small text files read at decision time (git config, ignore files) are parsed once per version:
 * a cached parse is reused while the file's mtime and size are unchanged.
 */
export class ParsedFileCache<T> {
  private readonly entries = new Map<string, { mtimeMs: number; size: number; parsed: T }>();

  constructor(
    private readonly parse: (text: string, path: string) => T,
    /** What a missing or unreadable file (or a directory) parses to. */
    private readonly missing: T,
  ) {}

  get(path: string): T {
    const stat = fileStat(path);
    if (!stat?.isFile()) return this.missing;
    const cached = this.entries.get(path);
    if (cached && cached.mtimeMs === stat.mtimeMs && cached.size === stat.size) return cached.parsed;
    let text: string;
    try {
      text = readFileSync(path, "utf8");
    } catch {
      return this.missing;
    }
    const parsed = this.parse(text, path);
    this.entries.set(path, { mtimeMs: stat.mtimeMs, size: stat.size, parsed });
    return parsed;
  }
}
