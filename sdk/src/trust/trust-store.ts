import { join } from "node:path";
import { readIfPresent, writeAtomically } from "../atomic-file.js";

/** A publisher key pinned on first use (or accepted when it changed). */
export interface PinnedKey {
  key_id: string;
  /** PEM, SPKI: verifications use this copy, never the registry's later answer. */
  public_key: string;
  pinned_at: string;
}

/** What the user approved of a tool: the definition the LLM and the sandbox see, and its digest. */
export interface ApprovedDefinition {
  digest: string;
  version: string;
  definition: Record<string, unknown>;
  approved_at: string;
}

/**
 * What the SDK remembers about trust, per registry, in the cache folder (docs/sdk.md, "Publisher
 * trust"):
 *
 *   trust/<registry>/publishers/<owner>.json  {"keys": [PinnedKey…]}
 *   trust/<registry>/definitions/<tool>.json  ApprovedDefinition
 *
 * `<registry>` is the registry's base URL, percent-encoded, so two registries' `acme` are never
 * confused. Files are written whole (temp + rename); a file that does not parse counts as absent
 * for keys (pinned again on first use) and definitions (approved again), never as a crash.
 */
export class TrustStore {
  private readonly root: string;

  constructor(cacheDir: string, registryUrl: string) {
    this.root = join(cacheDir, "trust", encodeURIComponent(registryUrl));
  }

  async pinnedKeys(owner: string): Promise<PinnedKey[]> {
    const stored = await this.read(this.publisherPath(owner));
    const keys = isObject(stored) && Array.isArray(stored.keys) ? stored.keys : [];
    return keys.filter((key): key is PinnedKey => isObject(key) && typeof key.key_id === "string" && typeof key.public_key === "string");
  }

  async pinKey(owner: string, key: { key_id: string; public_key: string }): Promise<void> {
    const keys = (await this.pinnedKeys(owner)).filter((pinned) => pinned.key_id !== key.key_id);
    keys.push({ key_id: key.key_id, public_key: key.public_key, pinned_at: new Date().toISOString() });
    await writeAtomically(this.publisherPath(owner), JSON.stringify({ keys }, null, 2));
  }

  async approvedDefinition(toolId: string): Promise<ApprovedDefinition | undefined> {
    const stored = await this.read(this.definitionPath(toolId));
    if (!isObject(stored) || typeof stored.digest !== "string" || !isObject(stored.definition)) return undefined;
    return stored as unknown as ApprovedDefinition;
  }

  async approveDefinition(toolId: string, approved: Omit<ApprovedDefinition, "approved_at">): Promise<void> {
    await writeAtomically(this.definitionPath(toolId), JSON.stringify({ ...approved, approved_at: new Date().toISOString() }, null, 2));
  }

  private publisherPath(owner: string): string {
    return join(this.root, "publishers", `${encodeURIComponent(owner)}.json`);
  }

  private definitionPath(toolId: string): string {
    return join(this.root, "definitions", `${encodeURIComponent(toolId)}.json`);
  }

  private async read(path: string): Promise<unknown> {
    const bytes = await readIfPresent(path);
    if (bytes === undefined) return undefined;
    try {
      return JSON.parse(Buffer.from(bytes).toString("utf8"));
    } catch {
      return undefined;
    }
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
