import { createHash } from "node:crypto";
import { canonicalize } from "json-canonicalize";

/**
 * What the decision log keeps of a tool call's input (docs/permissions.md#decision-log): a digest
 * of the whole input, to match a call without storing it, and a summary a person can read, with
 * secrets redacted and every value bounded, so the log never becomes a copy of the agent's
 * credentials or of the files it wrote.
 */

/** Keys whose values are secrets whatever they hold. */
const SECRET_KEY = /(pass(word|wd|phrase)?|secret|token|api[_-]?key|auth|credential|private[_-]?key|cookie|session)/i;

/** Secrets recognised by their form, each with whose format it is. */
const SECRET_VALUES: readonly { pattern: RegExp; source: string }[] = [
  { pattern: /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(-----END [A-Z ]*PRIVATE KEY-----|$)/g, source: "PEM private keys" },
  { pattern: /\bsk-(ant-|proj-)?[A-Za-z0-9_-]{16,}/g, source: "OpenAI and Anthropic API keys" },
  { pattern: /\b(gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})/g, source: "GitHub tokens" },
  { pattern: /\b(AKIA|ASIA)[0-9A-Z]{16}\b/g, source: "AWS access key ids" },
  { pattern: /\bxox[abprs]-[A-Za-z0-9-]{10,}/g, source: "Slack tokens" },
  { pattern: /\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g, source: "JSON web tokens" },
  { pattern: /\b(Bearer|Basic)\s+[A-Za-z0-9+/=._~-]{12,}/gi, source: "HTTP authorization values" },
  { pattern: /(:\/\/[^/\s:@]+:)[^/\s@]+(?=@)/g, source: "passwords in URLs (user:password@host)" },
  { pattern: /\b([A-Z0-9_]*(TOKEN|SECRET|PASSWORD|API_KEY|APIKEY)[A-Z0-9_]*=)\S+/g, source: "NAME=value assignments of secret variables" },
];

export const REDACTED = "[redacted]";
const MAX_STRING = 200;
const MAX_ITEMS = 20;
const MAX_DEPTH = 4;

/** `sha256:<hex>` of the input's canonical JSON (RFC 8785). */
export function inputDigest(input: unknown): string {
  let text: string;
  try {
    text = canonicalize(input ?? null);
  } catch {
    text = String(input);
  }
  return `sha256:${createHash("sha256").update(text, "utf8").digest("hex")}`;
}

/** The input as the log shows it: secrets redacted, strings cut to 200 characters, at most 20 entries per object or list, 4 levels deep. */
export function inputSummary(input: unknown, depth = 0): unknown {
  if (typeof input === "string") return boundedString(redactedText(input));
  if (input === null || typeof input !== "object") return typeof input === "bigint" ? String(input) : input;
  if (depth >= MAX_DEPTH) return Array.isArray(input) ? `[${input.length} items]` : "{…}";
  if (Array.isArray(input)) {
    const items = input.slice(0, MAX_ITEMS).map((item) => inputSummary(item, depth + 1));
    return input.length > MAX_ITEMS ? [...items, `… ${input.length - MAX_ITEMS} more`] : items;
  }
  const entries = Object.entries(input);
  const summary: Record<string, unknown> = {};
  for (const [key, value] of entries.slice(0, MAX_ITEMS)) summary[key] = SECRET_KEY.test(key) ? REDACTED : inputSummary(value, depth + 1);
  if (entries.length > MAX_ITEMS) summary["…"] = `${entries.length - MAX_ITEMS} more keys`;
  return summary;
}

function redactedText(text: string): string {
  let result = text;
  for (const { pattern } of SECRET_VALUES)
    result = result.replace(pattern, (_match, prefix: unknown) =>
      typeof prefix === "string" && /[:=]$/.test(prefix) ? `${prefix}${REDACTED}` : REDACTED,
    );
  return result;
}

function boundedString(text: string): string {
  return text.length > MAX_STRING ? `${text.slice(0, MAX_STRING)}… (${text.length} characters)` : text;
}
