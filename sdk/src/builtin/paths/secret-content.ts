import { closeSync, constants, openSync, readSync } from "node:fs";
import { fileStat } from "../../permission/working-directories.js";

/**
 * Secrets by kind, not by name (docs/command-policy.md#secrets-by-content): a file whose opening
 * holds a credential is a secret wherever it lives and whatever it is called (`~/.dbt/profiles.yml`,
 * `wp-config.php`, `appsettings.Development.json`). Each hint is data with the reason it names and
 * a sample it must match, so the list can be reviewed and extended entry by entry.
 */
export interface CredentialHint {
  pattern: RegExp;
  /** What a match is, for the decision's reason: "a private key", "a token assigned to `api_key`". */
  reason: string;
  /** A text the pattern matches (a test checks each). */
  sample: string;
}

/**
 * Words a credential's key ends with: `password`, `DB_PASSWORD`, `secretKey`, `authtoken`, `"auth"`.
 * A bare `_key` is not one: `cache_key` and `primary_key` hold generated-looking values too.
 */
const KEY =
  "[A-Za-z0-9_.-]*?(?:password|passwd|passphrase|secret|secret[_-]?key|access[_-]?key|private[_-]?key|api[_-]?key|apikey|token|auth|credentials?)";
/**
 * A value that looks generated rather than written: at least 12 characters of the alphabets tokens
 * use, letters and digits both. Code that computes a value (`getToken()`, `settings.SECRET_KEY`,
 * `os.environ["KEY"]`) and placeholders (`xxxxxxxxxxxx`, `${TOKEN}`) do not match.
 */
const VALUE = "(?=[A-Za-z0-9+/=_-]*[0-9])(?=[A-Za-z0-9+/=_-]*[A-Za-z])[A-Za-z0-9+/=_-]{12,}";

export const CREDENTIAL_HINTS: readonly CredentialHint[] = [
  {
    pattern: /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----/,
    reason: "a private key",
    sample: "-----BEGIN OPENSSH PRIVATE KEY-----",
  },
  { pattern: /\bAGE-SECRET-KEY-1[0-9A-Z]{20,}/, reason: "an age secret key", sample: "AGE-SECRET-KEY-1QQQQQQQQQQQQQQQQQQQQQQQQ" },
  {
    pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{36}|github_pat_[A-Za-z0-9_]{40,}|glpat-[A-Za-z0-9_-]{20,}|xox[abposr]-[A-Za-z0-9-]{10,})/,
    reason: "a GitHub, GitLab or Slack token",
    sample: "ghp_abcdefghijklmnopqrstuvwxyz0123456789",
  },
  { pattern: /\bAKIA[0-9A-Z]{16}\b/, reason: "an AWS access key id", sample: "AKIAABCDEFGHIJKLMNOP" },
  {
    pattern: /\b[a-z][a-z0-9+.-]{1,20}:\/\/[^\s/:@'"]*:[^\s/@'"$<{]{3,}@[^\s/'"]+/i,
    reason: "a URL with a password in it",
    sample: "postgres://app:hunter2@db.internal:5432/app",
  },
  {
    // `key = value`, `key: value`, `"key": "value"`, `key => 'value'`, `define('KEY', 'value')`.
    pattern: new RegExp(String.raw`(?:^|[^A-Za-z0-9])["']?${KEY}["']?\s*(?:=>|[:=,])\s*["']?${VALUE}`, "im"),
    reason: "a token-like value assigned to a credential's name",
    sample: "define( 'DB_PASSWORD', 'h7Fq2LpX9zR4wK' );",
  },
  {
    // Passwords people choose are short and plain: a literal (not `${VAR}`, a placeholder or code
    // such as `request.form["pw"]`) on a configuration line of its own.
    pattern:
      /^\s*["']?[A-Za-z0-9_.-]*?(?:password|passwd|passphrase)["']?\s*[:=]\s*["']?(?![$<{%]|(?:null|none|nil|true|false|changeme|password|secret|x+|\*+)["']?\s*,?\s*$)[^\s"'#;,.()[\]]{4,}["']?\s*,?\s*$/im,
    reason: "a password written into a configuration line",
    sample: "    password: hunter22",
  },
];

/** How much of a file is read for hints: credentials sit near the top of the files that hold them. */
const HEAD_BYTES = 64 * 1024;
const CACHE_LIMIT = 10_000;
const verdicts = new Map<string, { mtimeMs: number; size: number; reason: string | undefined }>();

/**
 * What credential `path`'s opening holds ("a private key", ...), or undefined when it shows none,
 * is not a regular file, or cannot be read. Judged once per version of the file (mtime and size).
 */
export function credentialContentReason(path: string): string | undefined {
  const stat = fileStat(path);
  if (!stat?.isFile() || stat.size === 0) return undefined;
  const cached = verdicts.get(path);
  if (cached?.mtimeMs === stat.mtimeMs && cached.size === stat.size) return cached.reason;
  const reason = hintIn(readHead(path));
  if (verdicts.size >= CACHE_LIMIT) verdicts.delete(verdicts.keys().next().value!);
  verdicts.set(path, { mtimeMs: stat.mtimeMs, size: stat.size, reason });
  return reason;
}

/** The reason of the first hint `text` matches. */
export function hintIn(text: string): string | undefined {
  return CREDENTIAL_HINTS.find(({ pattern }) => pattern.test(text))?.reason;
}

function readHead(path: string): string {
  let fd: number;
  try {
    // Non-blocking: a file swapped for a FIFO between the stat and the open must not hang a decision.
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch {
    return "";
  }
  try {
    const buffer = Buffer.alloc(HEAD_BYTES);
    const read = readSync(fd, buffer, 0, HEAD_BYTES, 0);
    return buffer.toString("latin1", 0, read);
  } catch {
    return "";
  } finally {
    closeSync(fd);
  }
}
