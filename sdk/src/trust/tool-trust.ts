import type { PermissionEngine } from "../permission/permission-engine.js";
import type { RegistryClient } from "../registry-client/registry-client.js";
import type { ToolRecord } from "../registry-client/tool-record.js";
import { DefinitionPins, type DefinitionChange } from "./definition-pins.js";
import { readTrustedKeys } from "./publisher-keys.js";
import { SignatureCheck } from "./signature-check.js";
import type { TrustAsker } from "./trust-asks.js";
import { TrustStore } from "./trust-store.js";
import { admitVersionStatus, type ToolWarning } from "./version-status.js";

/** The publisher-trust options of `AgentTools` (docs/sdk.md, "Publisher trust"). */
export interface TrustOptions {
  /** Refuse unsigned registry tools. Default false: unsigned tools run, but a signature that does not verify never does. */
  requireSignatures?: boolean;
  /**
   * Publisher name → the ed25519 public key(s) (PEM, SPKI) its tools must be signed with. For these
   * publishers the registry's keys are not used and nothing is pinned: another key is refused, and
   * so is an unsigned tool (naming keys means signatures are required for that publisher).
   */
  trustedKeys?: Record<string, string | string[]>;
  /** Answers a trust question: a publisher's new signing key, a tool's changed definition. Without it, they are refused. */
  onTrustRequest?: TrustAsker;
  /** Receives warnings about tools, once per tool version (a deprecated version). Default `console.warn` of the message. */
  onWarning?: (warning: ToolWarning) => void;
}

/**
 * What `AgentTools` checks on a registry entry before anything of it is downloaded or run (the
 * version's lifecycle status, then its publisher signature), and before its first call (that its
 * definition is still the one the user approved).
 */
export class ToolTrust {
  private readonly warn: (warning: ToolWarning) => void;
  /** `id@version`s already warned about, so each deprecated version warns once per instance. */
  private readonly warned = new Set<string>();
  private readonly signatures: SignatureCheck | undefined;
  private readonly definitions: DefinitionPins | undefined;

  constructor(options: TrustOptions, context: { client: RegistryClient | undefined; cacheDir: string; engine: PermissionEngine }) {
    this.warn = options.onWarning ?? ((warning) => console.warn(warning.message));
    const trustedKeys = readTrustedKeys(options.trustedKeys);
    const { client, engine } = context;
    if (client === undefined) return;
    const store = new TrustStore(context.cacheDir, client.baseUrl);
    const ask = options.onTrustRequest;
    this.signatures = new SignatureCheck({
      client,
      store,
      requireSignatures: options.requireSignatures === true,
      trustedKeys,
      engine,
      ask,
    });
    this.definitions = new DefinitionPins({ store, engine, ask });
  }

  /** Throws a `TrustError` when the entry must not run; `pinnedExactly` when the user asked for `id@version`. */
  async admit(entry: ToolRecord, version: string, pinnedExactly: boolean): Promise<void> {
    admitVersionStatus(entry, version, pinnedExactly, (warning) => {
      const key = `${warning.toolId}@${warning.version}`;
      if (this.warned.has(key)) return;
      this.warned.add(key);
      this.warn(warning);
    });
    await this.signatures?.verify(entry, version);
  }

  /** Whether the entry's definition differs from the approved one (a first use is recorded as approved). */
  async definitionChange(entry: ToolRecord, version: string): Promise<DefinitionChange | undefined> {
    return this.definitions?.check(entry, version);
  }

  /** Asks about a changed definition; throws `DEFINITION_CHANGE_REFUSED` unless the user accepts it. */
  async approveDefinition(change: DefinitionChange): Promise<void> {
    await this.definitions?.approve(change);
  }
}
