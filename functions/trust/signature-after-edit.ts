import type { Context } from "hono";
import { definitionDigest } from "@agent-tools/sdk/tool-spec";
import type { EntrySignature, PublishedEntry } from "../entry/published-entry.js";
import { HttpProblem } from "../http-problem.js";
import type { KeyStore } from "../storage/key-store.js";
import { ADMIN_PUBLISHER } from "./publisher-name.js";
import { SIGNATURE_HEADER, verifySignature } from "./verify-signature.js";

/**
 * The signature an edited entry (`PUT /tools/{id}`) carries (docs/design/publisher-trust.md,
 * "Edits"): a new one sent with the edit, verified against the edited entry; else the old one
 * when the edit left the signed definition as it was. Changing the definition of a signed version
 * without a new signature is 409: the old signature would no longer match.
 */
export async function signatureAfterEdit(
  c: Context,
  keys: KeyStore,
  before: PublishedEntry,
  after: PublishedEntry,
): Promise<EntrySignature | undefined> {
  const header = c.req.header(SIGNATURE_HEADER);
  if (header !== undefined) return verifySignature(keys, header, before.owner ?? ADMIN_PUBLISHER, after);
  if (before.signature === undefined) return undefined;
  if (definitionDigest({ ...after }) === definitionDigest({ ...before })) return before.signature;
  throw new HttpProblem(
    409,
    "Signature required",
    `${before.tool_id}@${before.version} is signed (key ${before.signature.key_id}) and this edit changes what ` +
      `the signature covers: re-sign the edited entry and send the signature in the ${SIGNATURE_HEADER} header.`,
  );
}
