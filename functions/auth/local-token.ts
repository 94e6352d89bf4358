import { randomBytes } from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { hashVerifier, sha256Hex, type TokenVerifier } from "./token-verifier.js";

export interface LocalToken {
  verify: TokenVerifier;
  /** The token in clear text when it is known to this process (given, or generated just now). */
  token?: string;
  source: "given" | "generated" | "stored";
  /** Where the generated token's hash lives. */
  hashFile: string;
  /**
   * Stores a generated token's hash (a no-op otherwise). Called once the server is listening, so a
   * start that fails (port in use) stores nothing and the next start generates and shows a token.
   */
  persist(): Promise<void>;
}

/**
 * The embedded default's write token. A given token (`REGISTRY_TOKEN` / `--token`) is used as is;
 * otherwise the first successful start generates one and stores only its sha256 in the data folder.
 */
export async function loadLocalToken(dataDir: string, givenToken?: string): Promise<LocalToken> {
  const hashFile = join(dataDir, "write-token.sha256");
  const nothingToStore = async () => undefined;
  if (givenToken !== undefined && givenToken !== "") {
    return { verify: hashVerifier(sha256Hex(givenToken)), token: givenToken, source: "given", hashFile, persist: nothingToStore };
  }
  const stored = await readFile(hashFile, "utf8").then(
    (text) => text.trim(),
    (error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT") return undefined;
      throw error;
    },
  );
  if (stored) return { verify: hashVerifier(stored), source: "stored", hashFile, persist: nothingToStore };

  const token = randomBytes(32).toString("base64url");
  const persist = async () => {
    await mkdir(dataDir, { recursive: true });
    await writeFile(hashFile, `${sha256Hex(token)}\n`, { mode: 0o600 });
  };
  return { verify: hashVerifier(sha256Hex(token)), token, source: "generated", hashFile, persist };
}
