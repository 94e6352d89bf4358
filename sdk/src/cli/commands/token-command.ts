import { InvalidArgumentError, type Command } from "commander";
import { createPublisherToken, listPublisherTokens, revokePublisherToken, type PublisherAction } from "../../publish/publisher-tokens.js";
import { printJson, type CliContext } from "../cli-context.js";
import { withWriteOptions, writeRequest, type WriteOptions } from "./token-option.js";

const ACTIONS: readonly PublisherAction[] = ["publish", "update", "deprecate", "yank", "delete"];

/**
 * `agent-tools token create|list|revoke`: publisher tokens, managed with the admin token
 * (docs/registry.md, "Publishers, tokens and audit"). `create` prints the secret once.
 */
export function registerTokenCommand(program: Command, context: CliContext): void {
  const { io } = context;
  // program.command() (not new Command()) so the subcommands inherit exitOverride and the output streams.
  const token = program.command("token").description("publisher tokens: scoped, expiring write tokens minted with the admin token");

  withWriteOptions(
    token
      .command("create")
      .description("mint a token for a publisher (prints its secret once)")
      .requiredOption("--name <publisher>", "publisher name (lowercase letters, digits, -)")
      .requiredOption("--scope <patterns>", "tool ids or prefixes ending in * (comma-separated, or repeat the option)", collectList, [])
      .requiredOption("--actions <actions>", `comma-separated: ${ACTIONS.join(", ")}`, actionList)
      .option("--expires <duration>", "lifetime: 12h, 30d or hours (default 30d)", hours),
  ).action(async (options: WriteOptions & { name: string; scope: string[]; actions: PublisherAction[]; expires?: number }) => {
    const minted = await createPublisherToken(
      {
        name: options.name,
        scope: options.scope,
        actions: options.actions,
        ...(options.expires === undefined ? {} : { expiresInHours: options.expires }),
      },
      writeRequest(context, options),
    );
    if (options.json) return printJson(io, minted);
    io.out(`${minted.token}\n`);
    io.err(
      `Token for publisher ${minted.name} (${minted.actions.join(", ")} on ${minted.scope.join(", ")}), ` +
        `expires ${minted.expires_at}. It is shown only now: store it safely.\n`,
    );
  });

  withWriteOptions(token.command("list").description("list publisher tokens (never their secrets)")).action(
    async (options: WriteOptions) => {
      const tokens = await listPublisherTokens(writeRequest(context, options));
      if (options.json) return printJson(io, tokens);
      if (tokens.length === 0)
        io.out("No publisher tokens yet: `agent-tools token create --name <publisher> --scope '<prefix>*' --actions publish` mints one.\n");
      const now = new Date().toISOString();
      for (const entry of tokens) {
        const state =
          entry.revoked_at !== undefined
            ? `revoked ${entry.revoked_at}`
            : entry.expires_at <= now
              ? `expired ${entry.expires_at}`
              : `expires ${entry.expires_at}`;
        io.out(`${entry.name}\t${entry.actions.join(",")}\t${entry.scope.join(",")}\t${state}\n`);
      }
    },
  );

  withWriteOptions(token.command("revoke").description("revoke a publisher's token at once").argument("<name>", "publisher name")).action(
    async (name: string, options: WriteOptions) => {
      const revoked = await revokePublisherToken(name, writeRequest(context, options));
      if (options.json) printJson(io, revoked);
      else io.out(`Revoked the token of ${revoked.name} (${revoked.revoked_at})\n`);
    },
  );
}

function collectList(value: string, previous: string[]): string[] {
  return [
    ...previous,
    ...value
      .split(",")
      .map((part) => part.trim())
      .filter(Boolean),
  ];
}

function actionList(value: string): PublisherAction[] {
  const actions = value
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean);
  const unknown = actions.filter((action) => !(ACTIONS as readonly string[]).includes(action));
  if (actions.length === 0 || unknown.length > 0)
    throw new InvalidArgumentError(
      `expected a comma-separated list of ${ACTIONS.join(", ")}${unknown.length > 0 ? `; not: ${unknown.join(", ")}` : ""}.`,
    );
  return actions as PublisherAction[];
}

/** `12h`, `30d` or a number of hours. */
function hours(value: string): number {
  const match = /^(\d{1,5})([hd]?)$/.exec(value.trim());
  if (!match) throw new InvalidArgumentError("expected a duration such as 12h, 30d or a number of hours.");
  return Number(match[1]) * (match[2] === "d" ? 24 : 1);
}
