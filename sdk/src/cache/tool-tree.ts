/** A tool's files on disk: the tool folder (cwd of binaries) and its `code/` folder. */
export interface ToolTree {
  toolDir: string;
  codeDir: string;
  /** sha256 of the archive it came from; undefined for a local folder run in place. */
  archiveSha256: string | undefined;
  /** True when this `add` had to download the archive (false: served from the cache). */
  downloaded: boolean;
}
