import { createPublicKey, verify } from "node:crypto";
import { signaturePayload } from "@agent-tools/sdk/tool-spec";
import type { EntrySignature, PublishedEntry } from "../entry/published-entry.js";
import { HttpProblem } from "../http-problem.js";
import type { KeyStore } from "../storage/key-store.js";

/** The header a signature travels in (docs/design/publisher-trust.md, "Signatures"). */
export const SIGNATURE_HEADER = "x-agent-tools-signature";

const HEADER_FORMAT = /^(sha256:[0-9a-f]{64}):([A-Za-z0-9+/]{86}==)$/;

/**
 * Checks an `X-Agent-Tools-Signature: <key_id>:<base64>` header against `entry` as it will be
 * stored: the key must be registered, unrevoked, and belong to the tool's owner (403 when it is
 * another publisher's), and the ed25519 signature must cover exactly this release (422 otherwise).
 * Returns the signature to store with the version.
 */
export async function verifySignature(keys: KeyStore, header: string, owner: string, entry: PublishedEntry): Promise<EntrySignature> {
  const match = HEADER_FORMAT.exec(header.trim());
  if (!match) {
    throw invalid(
      `the ${SIGNATURE_HEADER} header must be "<key_id>:<base64 ed25519 signature>", ` +
        `key_id as "sha256:" and 64 hex digits (agent-tools publish --sign builds it)`,
    );
  }
  const [, keyId, value] = match as unknown as [string, string, string];
  const key = await keys.get(keyId);
  if (key === undefined)
    throw invalid(`key ${keyId} is not registered; register its public key first (agent-tools key add ${owner} <public-key.pem>)`);
  if (key.publisher !== owner) {
    throw new HttpProblem(
      403,
      "Forbidden",
      `Key ${keyId} belongs to publisher "${key.publisher}", but ${entry.tool_id} ` +
        `belongs to "${owner}": sign with a key registered for ${owner}.`,
    );
  }
  if (key.revoked_at !== undefined) throw invalid(`key ${keyId} of ${owner} was revoked at ${key.revoked_at}; sign with a current key`);
  if (
    !verify(
      null,
      signaturePayload(entry as PublishedEntry & Record<string, unknown>),
      createPublicKey(key.public_key),
      Buffer.from(value, "base64"),
    )
  ) {
    throw invalid(
      `the signature does not match ${entry.tool_id}@${entry.version} as uploaded: it was made over ` +
        `other bytes (another tool.zip, spec.json, tool.md or version); sign exactly what you upload`,
    );
  }
  return { key_id: keyId, value };
}

function invalid(problem: string): HttpProblem {
  return new HttpProblem(422, "Invalid signature", `${problem}.`);
}
