/**
 * Entries macOS adds to archives on its own, which never belong to a tool: Finder's "Compress"
 * puts resource forks under `__MACOSX/`, Finder leaves `.DS_Store` files in folders, and macOS
 * `tar` stores extended attributes as AppleDouble `._<name>` files. Archives are read as if these
 * were not there, so a bundle zipped in Finder is accepted and unpacks to the same tool.
 */
export function isMacOsMetadata(path: string): boolean {
  const segments = path.split("/");
  const name = segments.at(-1) ?? "";
  return segments[0] === "__MACOSX" || name === ".DS_Store" || name.startsWith("._");
}
