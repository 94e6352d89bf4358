import { readdir, rm } from "node:fs/promises";
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

/** One publisher's pinned keys, as `TrustStore.publishers()` lists them. */
export interface PinnedPublisher {
  owner: string;
  keys: PinnedKey[];
}

/** One tool's approved definition, as `TrustStore.definitions()` lists them. */
export interface ApprovedTool extends ApprovedDefinition {
  toolId: string;
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

  /** The registries that have a trust folder in `cacheDir`, so a user who names another one can be told which. */
  static async registries(cacheDir: string): Promise<string[]> {
    const names = await namesIn(join(cacheDir, "trust"));
    return names.flatMap((name) => decoded(name) ?? []).sort();
  }

  /** Every publisher with at least one readable pinned key, by owner name. */
  async publishers(): Promise<PinnedPublisher[]> {
    const owners = await this.storedNames("publishers");
    const listed = await Promise.all(owners.map(async (owner) => ({ owner, keys: await this.pinnedKeys(owner) })));
    return listed.filter((publisher) => publisher.keys.length > 0);
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

  /** Every tool with a readable approved definition, by tool id. */
  async definitions(): Promise<ApprovedTool[]> {
    const toolIds = await this.storedNames("definitions");
    const listed = await Promise.all(
      toolIds.map(async (toolId) => {
        const approved = await this.approvedDefinition(toolId);
        return approved === undefined ? [] : [{ toolId, ...approved }];
      }),
    );
    return listed.flat();
  }

  /** Drops the owner's pinned keys: the next signed tool of the owner pins its key again. False when none were pinned. */
  async forgetPublisher(owner: string): Promise<boolean> {
    return removeIfPresent(this.publisherPath(owner));
  }

  /** Drops the tool's approved definition: its next use is a first use again. False when none was recorded. */
  async forgetDefinition(toolId: string): Promise<boolean> {
    return removeIfPresent(this.definitionPath(toolId));
  }

  private publisherPath(owner: string): string {
    return join(this.root, "publishers", `${encodeURIComponent(owner)}.json`);
  }

  private definitionPath(toolId: string): string {
    return join(this.root, "definitions", `${encodeURIComponent(toolId)}.json`);
  }

  /** The names stored in one folder, decoded and sorted (temp files of a write in progress are not names). */
  private async storedNames(folder: "publishers" | "definitions"): Promise<string[]> {
    const files = await namesIn(join(this.root, folder));
    return files
      .filter((file) => file.endsWith(".json"))
      .flatMap((file) => decoded(file.slice(0, -".json".length)) ?? [])
      .sort();
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

async function namesIn(folder: string): Promise<string[]> {
  try {
    return await readdir(folder);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
}

async function removeIfPresent(path: string): Promise<boolean> {
  try {
    await rm(path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
    throw error;
  }
}

/** A file name this store wrote back to the name it encodes; undefined for one it did not write. */
function decoded(name: string): string | undefined {
  try {
    const value = decodeURIComponent(name);
    return encodeURIComponent(value) === name ? value : undefined;
  } catch {
    return undefined;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
