import { createHash } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { deflateSync } from "node:zlib";

/**
 * A git repository written with fs calls only (no git process runs to build it): loose objects,
 * one commit of the given files, a branch, an index listing them and a config. Enough for `git
 * status`, `log -p`, `diff` and `show` to work, so the programs a repository configures for
 * them get their chance to run.
 */
export interface RepositoryFiles {
  /** Path → content of the committed files (relative to the work tree). */
  files: Record<string, string>;
  /** The repository's `.git/config` text after `[core]`'s defaults. */
  config?: string;
  /** Extra headers of the commit (a `gpgsig` block makes `log --show-signature` verify it). */
  commitHeaders?: string;
  /** The branch HEAD names; `detached` writes the commit id into HEAD, as `git checkout <id>` does. */
  head?: "main" | "detached";
  /** Where the git directory goes (default `<workTree>/.git`); elsewhere, `.git` becomes a `gitdir:` file. */
  gitDirectory?: string;
  /** A bare repository: no work tree, no index. */
  bare?: boolean;
}

const IDENTITY = "Harness <harness@example.invalid> 1700000000 +0000";

/** Writes the repository and returns its git directory and commit id. */
export function writeRepository(workTree: string, repository: RepositoryFiles): { gitDirectory: string; commit: string } {
  const gitDirectory = repository.bare ? workTree : (repository.gitDirectory ?? join(workTree, ".git"));
  for (const folder of ["objects/info", "objects/pack", "refs/heads", "refs/tags", "hooks", "info"])
    mkdirSync(join(gitDirectory, folder), { recursive: true });
  const store = (type: string, body: Buffer) => writeObject(gitDirectory, type, body);

  const blobs = Object.entries(repository.files)
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([path, content]) => ({ path, content, id: store("blob", Buffer.from(content)) }));
  const tree = storeTree(store, blobs);
  const commit = store(
    "commit",
    Buffer.from(`tree ${tree}\nauthor ${IDENTITY}\ncommitter ${IDENTITY}\n${repository.commitHeaders ?? ""}\nInitial commit\n`),
  );
  writeFileSync(join(gitDirectory, "refs/heads/main"), `${commit}\n`);
  writeFileSync(join(gitDirectory, "HEAD"), repository.head === "detached" ? `${commit}\n` : "ref: refs/heads/main\n");
  const bare = repository.bare ? "true" : "false";
  writeFileSync(
    join(gitDirectory, "config"),
    `[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = ${bare}\n${repository.config ?? ""}`,
  );
  if (repository.bare) return { gitDirectory, commit };

  for (const blob of blobs) {
    mkdirSync(join(workTree, blob.path, ".."), { recursive: true });
    writeFileSync(join(workTree, blob.path), blob.content);
  }
  writeFileSync(join(gitDirectory, "index"), indexFile(blobs));
  if (repository.gitDirectory !== undefined) writeFileSync(join(workTree, ".git"), `gitdir: ${repository.gitDirectory}\n`);
  return { gitDirectory, commit };
}

function writeObject(gitDirectory: string, type: string, body: Buffer): string {
  const raw = Buffer.concat([Buffer.from(`${type} ${body.length}\0`), body]);
  const id = createHash("sha1").update(raw).digest("hex");
  mkdirSync(join(gitDirectory, "objects", id.slice(0, 2)), { recursive: true });
  writeFileSync(join(gitDirectory, "objects", id.slice(0, 2), id.slice(2)), deflateSync(raw));
  return id;
}

/** Trees for nested paths, bottom up; entries sorted as git sorts them (directories as `name/`). */
function storeTree(store: (type: string, body: Buffer) => string, entries: { path: string; id: string }[]): string {
  const here = new Map<string, { mode: string; id: string }>();
  const below = new Map<string, { path: string; id: string }[]>();
  for (const entry of entries) {
    const slash = entry.path.indexOf("/");
    if (slash < 0) here.set(entry.path, { mode: "100644", id: entry.id });
    else {
      const folder = entry.path.slice(0, slash);
      below.set(folder, [...(below.get(folder) ?? []), { path: entry.path.slice(slash + 1), id: entry.id }]);
    }
  }
  for (const [folder, children] of below) here.set(folder, { mode: "40000", id: storeTree(store, children) });
  const sortKey = (name: string) => (here.get(name)!.mode === "40000" ? `${name}/` : name);
  const names = [...here.keys()].sort((a, b) => (sortKey(a) < sortKey(b) ? -1 : 1));
  return store(
    "tree",
    Buffer.concat(
      names.map((name) => Buffer.concat([Buffer.from(`${here.get(name)!.mode} ${name}\0`), Buffer.from(here.get(name)!.id, "hex")])),
    ),
  );
}

/**
 * An index (version 2) listing the files with zero stat data: git sees every entry as possibly
 * changed and hashes the work tree again, the refresh on which filters and fsmonitor run.
 */
function indexFile(blobs: { path: string; content: string; id: string }[]): Buffer {
  const header = Buffer.alloc(12);
  header.write("DIRC", 0);
  header.writeUInt32BE(2, 4);
  header.writeUInt32BE(blobs.length, 8);
  const entries = blobs.map((blob) => {
    const name = Buffer.from(blob.path);
    const fixed = Buffer.alloc(62);
    fixed.writeUInt32BE(0o100644, 24);
    fixed.writeUInt32BE(Buffer.byteLength(blob.content), 36);
    Buffer.from(blob.id, "hex").copy(fixed, 40);
    fixed.writeUInt16BE(Math.min(name.length, 0xfff), 60);
    // Each entry is NUL-padded to a multiple of eight bytes, with at least one NUL.
    const padding = 8 - ((62 + name.length) % 8);
    return Buffer.concat([fixed, name, Buffer.alloc(padding)]);
  });
  const body = Buffer.concat([header, ...entries]);
  return Buffer.concat([body, createHash("sha1").update(body).digest()]);
}
