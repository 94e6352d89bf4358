import type { PermissionEngine } from "../permission/permission-engine.js";
import type { RegistryClient } from "../registry-client/registry-client.js";
import { RegistryError, RegistryUnavailableError } from "../registry-client/registry-errors.js";
import type { ToolRecord } from "../registry-client/tool-record.js";
import { readEntrySignature, signatureVerifies, type EntrySignature } from "./entry-signature.js";
import { readListedKeys, readPublisherKey, type ListedKey, type PublisherKey } from "./publisher-keys.js";
import { decideTrust, type TrustAsker } from "./trust-asks.js";
import { TrustError } from "./trust-errors.js";
import type { TrustStore } from "./trust-store.js";

export interface SignatureCheckOptions {
  client: RegistryClient;
  store: TrustStore;
  requireSignatures: boolean;
  /** Owner → the keys the user configured; for these owners the registry's keys are never used. */
  trustedKeys: Map<string, PublisherKey[]>;
  engine: PermissionEngine;
  ask: TrustAsker | undefined;
}

/**
 * Verifies a registry entry's publisher signature before anything of it is downloaded (the
 * archive is then checked against the signed `tool_archive_sha256`). The key comes from the
 * user's `trustedKeys` for the entry's owner, or else from the registry, pinned on first use: a
 * later version signed by another key of that owner asks the user (`PublisherKey(owner:key_id)`),
 * and a key the registry lists as revoked is refused. A signature that does not verify is always
 * refused; an unsigned entry with `requireSignatures`, or when `trustedKeys` names its owner.
 */
export class SignatureCheck {
  /** Each owner's keys are fetched once per instance. */
  private readonly listed = new Map<string, Promise<ListedKey[] | undefined>>();

  constructor(private readonly options: SignatureCheckOptions) {}

  async verify(entry: ToolRecord, version: string): Promise<void> {
    const toolId = entry.tool_id;
    const signature = readEntrySignature(entry, version);
    if (signature === undefined) {
      // Pinning a publisher's keys means its tools must be signed: a registry that strips the signature is not trusted either.
      const owner = typeof entry.owner === "string" ? entry.owner : undefined;
      const pinnedByUser = owner !== undefined && this.options.trustedKeys.has(owner);
      if (!this.options.requireSignatures && !pinnedByUser) return;
      const why = pinnedByUser
        ? `trustedKeys names keys for its publisher "${owner}", so its tools must be signed with one of them`
        : "requireSignatures is on";
      throw new TrustError(
        "SIGNATURE_REQUIRED",
        `Tool "${toolId}" version ${version} is not signed, and ${why}. Ask its publisher ` +
          `to publish it with \`agent-tools publish --sign <key>\`, or pick a signed tool.`,
        { toolId },
      );
    }
    const configured = this.options.trustedKeys.get(signature.owner);
    if (configured !== undefined) {
      this.verifyWith(
        entry,
        version,
        signature,
        configured.find((key) => key.keyId === signature.keyId),
        "trustedKeys",
      );
      return;
    }
    const pinned = (await this.options.store.pinnedKeys(signature.owner)).flatMap((stored) => {
      const key = readPublisherKey(stored.public_key);
      return key === undefined ? [] : [key];
    });
    const listed = await this.listedKeys(signature.owner);
    if (listed?.some((key) => key.keyId === signature.keyId && key.revoked)) {
      throw new TrustError(
        "SIGNATURE_KEY_REVOKED",
        `Tool "${toolId}" version ${version} is signed by ${signature.keyId}, which its publisher ` +
          `"${signature.owner}" has revoked. Pick a version signed by a current key, or ask the publisher to re-sign it.`,
        { toolId },
      );
    }
    const pinnedKey = pinned.find((key) => key.keyId === signature.keyId);
    if (pinnedKey !== undefined) {
      this.verifyWith(entry, version, signature, pinnedKey, "pinned");
      return;
    }
    const listedKey = listed?.find((key) => key.keyId === signature.keyId && !key.revoked);
    const verified = this.verifyWith(entry, version, signature, listedKey, listed === undefined ? "unreachable" : "registry");
    if (pinned.length > 0) await this.acceptKeyChange(entry, signature, pinned);
    await this.options.store.pinKey(signature.owner, { key_id: signature.keyId, public_key: verified.pem });
  }

  /** The key, once the signature verifies with it; otherwise the refusal that says why. */
  private verifyWith(
    entry: ToolRecord,
    version: string,
    signature: EntrySignature,
    key: PublisherKey | undefined,
    from: "trustedKeys" | "pinned" | "registry" | "unreachable",
  ): PublisherKey {
    const toolId = entry.tool_id;
    if (key === undefined) {
      const why =
        from === "trustedKeys"
          ? `which is not among the keys trustedKeys configures for "${signature.owner}". Add that key to trustedKeys if you trust it`
          : from === "unreachable"
            ? `and "${signature.owner}"'s keys could not be fetched from the registry to check it. Try again when the registry is reachable`
            : `which is not a key of its owner "${signature.owner}" at the registry. Do not run it; ` +
              `the publisher must register the key (PUT /publishers/${signature.owner}/keys) or re-sign`;
      throw new TrustError(
        from === "trustedKeys" ? "SIGNATURE_KEY_UNTRUSTED" : "SIGNATURE_KEY_UNKNOWN",
        `Tool "${toolId}" version ${version} is signed by ${signature.keyId}, ${why}.`,
        { toolId },
      );
    }
    if (!signatureVerifies(entry, version, signature, key)) {
      throw new TrustError(
        "SIGNATURE_INVALID",
        `Tool "${toolId}" version ${version}: its signature by "${signature.owner}" ` +
          `(${signature.keyId}) does not verify, so its archive digest or definition changed ` +
          `after it was signed. Nothing was downloaded; do not run it, and tell the publisher.`,
        { toolId },
      );
    }
    return key;
  }

  private async acceptKeyChange(entry: ToolRecord, signature: EntrySignature, pinned: PublisherKey[]): Promise<void> {
    const pinnedKeyIds = pinned.map((key) => key.keyId);
    const message =
      `Publisher "${signature.owner}" now signs "${entry.tool_id}" with key ${signature.keyId}; until now this SDK trusted ` +
      `only ${pinnedKeyIds.join(", ")} for "${signature.owner}". Accept the new key only if the publisher announced the change.`;
    const accepted = await decideTrust(this.options.engine, this.options.ask, {
      kind: "publisher-key",
      toolId: entry.tool_id,
      owner: signature.owner,
      keyId: signature.keyId,
      pinnedKeyIds,
      message,
    });
    if (!accepted) {
      throw new TrustError(
        "PUBLISHER_KEY_CHANGE_REFUSED",
        `${message} It was not accepted (no onTrustRequest answer, a deny rule, or a mode where nobody ` +
          `answers). Answer through onTrustRequest to accept it, or pin a version signed by a trusted key.`,
        { toolId: entry.tool_id },
      );
    }
  }

  /** The owner's keys as the registry lists them; undefined when it cannot be reached (pins still verify). */
  private listedKeys(owner: string): Promise<ListedKey[] | undefined> {
    let keys = this.listed.get(owner);
    if (keys === undefined) {
      keys = this.options.client.listPublisherKeys(owner).then(readListedKeys, (error: unknown) => {
        if (error instanceof RegistryUnavailableError) return undefined;
        if (error instanceof RegistryError && error.status === 404) return []; // no keys, or a registry before signatures
        throw error;
      });
      this.listed.set(owner, keys);
      keys.catch(() => this.listed.delete(owner));
    }
    return keys;
  }
}
