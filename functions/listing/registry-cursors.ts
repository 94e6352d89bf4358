import { randomBytes } from "node:crypto";
import { SecretsManagerClient } from "@aws-sdk/client-secrets-manager";
import { readSecretString } from "../auth/secret-string.js";
import type { RegistryConfig } from "../config.js";
import { type CursorSecret, PageCursors } from "./page-cursor.js";

/** One per configuration: the routes of an app share it, so the secret is read once per process. */
const cursorsByConfig = new WeakMap<RegistryConfig, PageCursors>();

/** The page cursors of the registry `config` describes (every listing route uses these). */
export function registryCursors(config: RegistryConfig): PageCursors {
  let cursors = cursorsByConfig.get(config);
  if (cursors === undefined) {
    cursors = new PageCursors(cursorSecretOf(config));
    cursorsByConfig.set(config, cursors);
  }
  return cursors;
}

/**
 * Where a registry's cursor secret comes from (docs/registry.md#paging-cursors): every instance of
 * one registry must share it, and nobody else may know it (a key derived from the table and bucket
 * names, which are public, let anyone mint cursors).
 * - `cursorKey` (`CURSOR_KEY`): given; the local server's, random per data folder (`local/cursor-key.ts`).
 * - `cursorSecretArn` (`CURSOR_SECRET_ARN`): the stack's generated Secrets Manager secret, read once
 *   per process, when the first cursor is issued or checked.
 * - neither (scripts, tests that build an app by hand): random for this process, so its cursors
 *   work only against the process that issued them.
 */
export function cursorSecretOf(config: Pick<RegistryConfig, "cursorKey" | "cursorSecretArn">): CursorSecret {
  const { cursorKey, cursorSecretArn } = config;
  if (cursorKey !== undefined) return async () => cursorKey;
  if (cursorSecretArn !== undefined) {
    let client: SecretsManagerClient | undefined;
    return async () => {
      client ??= new SecretsManagerClient({});
      const secret = await readSecretString(client, cursorSecretArn);
      if (secret === "") throw new Error(`cursor secret ${cursorSecretArn} has no SecretString`);
      return secret;
    };
  }
  const processKey = randomBytes(32).toString("base64url");
  return async () => processKey;
}
