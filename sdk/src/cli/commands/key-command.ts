import { readFile } from "node:fs/promises";
import type { Command } from "commander";
import { listPublisherKeys, registerPublisherKey, revokePublisherKey } from "../../publish/publisher-keys.js";
import { printJson, withJsonOption, type CliContext } from "../cli-context.js";
import { existingPath } from "./local-path.js";
import { withWriteOptions, writeRequest, type WriteOptions } from "./token-option.js";

/**
 * `agent-tools key add|list|revoke`: a publisher's ed25519 signing keys (docs/registry.md,
 * "Signed bundles"); `publish --sign <private key>` signs with one of them.
 */
export function registerKeyCommand(program: Command, context: CliContext): void {
  const { io } = context;
  const key = program.command("key").description("publisher signing keys (ed25519): register, list, revoke");

  withWriteOptions(
    key
      .command("add")
      .description("register a public key (PEM) for a publisher")
      .argument("<publisher>", "publisher name")
      .argument("<public-key.pem>", "the ed25519 public key"),
  ).action(async (publisher: string, file: string, options: WriteOptions) => {
    const pem = await readFile((await existingPath(io, file)).path, "utf8");
    const registered = await registerPublisherKey(publisher, pem, writeRequest(context, options));
    if (options.json) printJson(io, registered);
    else io.out(`Registered ${registered.key_id} for ${publisher}\n`);
  });

  withJsonOption(key.command("list").description("list a publisher's keys").argument("<publisher>", "publisher name")).action(
    async (publisher: string, options: { json?: boolean }) => {
      const keys = await listPublisherKeys(publisher, { registryUrl: context.registryUrl() });
      if (options.json) return printJson(io, keys);
      if (keys.length === 0)
        io.out(`${publisher} has no signing keys: \`agent-tools key add ${publisher} <public-key.pem>\` registers one.\n`);
      for (const entry of keys)
        io.out(`${entry.key_id}\t${entry.revoked_at === undefined ? `since ${entry.created_at}` : `revoked ${entry.revoked_at}`}\n`);
    },
  );

  withWriteOptions(
    key
      .command("revoke")
      .description("revoke a publisher's key")
      .argument("<publisher>", "publisher name")
      .argument("<key-id>", "sha256:…"),
  ).action(async (publisher: string, keyId: string, options: WriteOptions) => {
    const revoked = await revokePublisherKey(publisher, keyId, writeRequest(context, options));
    if (options.json) printJson(io, revoked);
    else io.out(`Revoked ${revoked.key_id} of ${publisher} (${String(revoked.revoked_at)})\n`);
  });
}
