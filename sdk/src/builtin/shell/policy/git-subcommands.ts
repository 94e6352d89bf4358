/**
 * git's own subcommands (git 2.39–2.47, `git help -a`). Git never lets an alias shadow one of
 * these, so any other word after `git` may be an alias from a config file or a `git-*` program:
 * it may be any subcommand as far as deny rules are concerned.
 */
export const GIT_SUBCOMMANDS: ReadonlySet<string> = new Set([
  "add", "am", "annotate", "apply", "archive", "bisect", "blame", "branch", "bugreport", "bundle", "cat-file", "check-attr", "check-ignore", "check-mailmap",
  "check-ref-format", "checkout", "checkout-index", "cherry", "cherry-pick", "citool", "clean", "clone", "column", "commit", "commit-graph", "commit-tree", "config",
  "count-objects", "credential", "describe", "diagnose", "diff", "diff-files", "diff-index", "diff-tree", "difftool", "fast-export", "fast-import", "fetch",
  "fetch-pack", "filter-branch", "fmt-merge-msg", "for-each-ref", "for-each-repo", "format-patch", "fsck", "fsmonitor--daemon", "gc", "get-tar-commit-id", "grep",
  "gui", "hash-object", "help", "hook", "http-backend", "index-pack", "init", "instaweb", "interpret-trailers", "log", "ls-files", "ls-remote", "ls-tree",
  "mailinfo", "mailsplit", "maintenance", "merge", "merge-base", "merge-file", "merge-index", "merge-one-file", "merge-tree", "mergetool", "mktag", "mktree",
  "multi-pack-index", "mv", "name-rev", "notes", "pack-objects", "pack-redundant", "pack-refs", "patch-id", "prune", "prune-packed", "pull", "push",
  "range-diff", "read-tree", "rebase", "receive-pack", "reflog", "refs", "remote", "repack", "replace", "replay", "request-pull", "rerere", "reset", "restore",
  "rev-list", "rev-parse", "revert", "rm", "send-email", "send-pack", "shortlog", "show", "show-branch", "show-index", "show-ref", "sparse-checkout", "stash",
  "status", "stripspace", "submodule", "switch", "symbolic-ref", "tag", "unpack-file", "unpack-objects", "update-index", "update-ref", "update-server-info",
  "upload-archive", "upload-pack", "var", "verify-commit", "verify-pack", "verify-tag", "version", "whatchanged", "worktree", "write-tree",
]);
