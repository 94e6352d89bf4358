import type { Command } from "commander";
import { resolveCacheDir } from "../../cache/cache-dir.js";
import { AgentToolsError } from "../../errors.js";
import { TrustStore } from "../../trust/trust-store.js";
import { untrustedText } from "../../trust/untrusted-text.js";
import { printJson, withJsonOption, type CliContext } from "../cli-context.js";
import { UsageError } from "../report-error.js";
import { cacheDirOption } from "./cache-dir-option.js";

/** `trust forget` of a tool or publisher with nothing pinned: exit status 1, like a 404. */
export class TrustPinNotFoundError extends AgentToolsError {
  constructor(message: string) {
    super("TRUST_PIN_NOT_FOUND", message);
  }
}

interface Pins {
  registry: string;
  cacheDir: string;
  store: TrustStore;
}

/**
 * `agent-tools trust list|forget`: the publisher keys and tool definitions the SDK pinned on first
 * use, for one registry in one cache folder (docs/sdk.md, "Publisher trust"), shown and reset
 * without touching the files by hand. Names come from files a registry chose, so text output
 * passes them through `untrustedText`.
 */
export function registerTrustCommand(program: Command, context: CliContext): void {
  const { io } = context;
  const pinsOf = (cacheDir: string | undefined): Pins => {
    const registry = context.registryUrl();
    const dir = resolveCacheDir(cacheDir);
    return { registry, cacheDir: dir, store: new TrustStore(dir, registry) };
  };
  const trust = program.command("trust").description("the publisher keys and tool definitions the SDK pinned, per registry: list, forget");

  withJsonOption(
    trust
      .command("list")
      .description("list the pinned publisher keys and approved tool definitions for --registry")
      .addOption(cacheDirOption()),
  ).action(async (options: { cacheDir?: string; json?: boolean }) => {
    const { registry, cacheDir, store } = pinsOf(options.cacheDir);
    const [publishers, tools] = await Promise.all([store.publishers(), store.definitions()]);
    if (options.json) {
      return printJson(io, {
        registry,
        cache_dir: cacheDir,
        publishers: publishers.map(({ owner, keys }) => ({ owner, keys })),
        tools: tools.map(({ toolId, version, digest, approved_at }) => ({ tool_id: toolId, version, digest, approved_at })),
      });
    }
    if (publishers.length === 0 && tools.length === 0) return io.out(`${await nothingPinned({ registry, cacheDir })}\n`);
    io.out(`Pinned for ${registry} in ${cacheDir}:\n`);
    if (publishers.length > 0) io.out("publishers (key id, pinned at)\n");
    for (const { owner, keys } of publishers)
      for (const key of keys) io.out(`  ${untrustedText(owner)}\t${untrustedText(key.key_id)}\t${untrustedText(String(key.pinned_at))}\n`);
    if (tools.length > 0) io.out("tools (approved version, definition digest, approved at)\n");
    for (const tool of tools)
      io.out(
        `  ` +
          `${untrustedText(tool.toolId)}\t${untrustedText(String(tool.version))}\t` +
          `${untrustedText(tool.digest)}\t${untrustedText(String(tool.approved_at))}\n`,
      );
  });

  withJsonOption(
    trust
      .command("forget")
      .description("forget a tool's approved definition, or a publisher's pinned keys: the next use records or pins them again")
      .argument("[tool-id]", "the tool whose approved definition to forget")
      .option("--publisher <name>", "forget this publisher's pinned keys instead")
      .addOption(cacheDirOption()),
  ).action(async (toolId: string | undefined, options: { publisher?: string; cacheDir?: string; json?: boolean }) => {
    if ((toolId === undefined) === (options.publisher === undefined))
      throw new UsageError(
        "name one pin to forget: `agent-tools trust forget <tool-id>` or `agent-tools trust forget --publisher <name>`.",
      );
    if (toolId?.includes("@"))
      throw new UsageError(`definitions are pinned per tool, not per version: \`agent-tools trust forget ${toolId.split("@")[0]}\`.`);
    const pins = pinsOf(options.cacheDir);
    if (options.publisher !== undefined) await forgetPublisher(pins, options.publisher, options.json === true);
    else if (toolId !== undefined) await forgetTool(pins, toolId, options.json === true);
  });

  async function forgetPublisher(pins: Pins, owner: string, json: boolean): Promise<void> {
    const keys = await pins.store.pinnedKeys(owner);
    if (!(await pins.store.forgetPublisher(owner))) {
      const known = (await pins.store.publishers()).map((publisher) => publisher.owner);
      throw new TrustPinNotFoundError(
        `no keys are pinned for publisher "${untrustedText(owner)}" ${where(pins)}${knownNames("pinned publishers", known)}.`,
      );
    }
    if (json) return printJson(io, { publisher: owner, forgotten: keys });
    const ids = keys.map((key) => untrustedText(key.key_id)).join(", ");
    io.out(`Forgot the pinned keys of ${untrustedText(owner)}${ids ? ` (${ids})` : ""}: its next signed tool pins its key again.\n`);
  }

  async function forgetTool(pins: Pins, toolId: string, json: boolean): Promise<void> {
    const approved = await pins.store.approvedDefinition(toolId);
    if (!(await pins.store.forgetDefinition(toolId))) {
      const known = (await pins.store.definitions()).map((tool) => tool.toolId);
      throw new TrustPinNotFoundError(
        `no definition of tool "${untrustedText(toolId)}" is approved ${where(pins)}${knownNames("approved tools", known)}.`,
      );
    }
    const forgotten =
      approved === undefined ? null : { version: approved.version, digest: approved.digest, approved_at: approved.approved_at };
    if (json) return printJson(io, { tool_id: toolId, forgotten });
    const version = approved === undefined ? "" : ` (version ${untrustedText(String(approved.version))})`;
    io.out(`Forgot the approved definition of ${untrustedText(toolId)}${version}: its next use records it again, without asking.\n`);
  }
}

function where(pins: Pins): string {
  return `for ${pins.registry} in ${pins.cacheDir}`;
}

function knownNames(label: string, names: string[]): string {
  if (names.length === 0) return "; nothing of that kind is pinned there";
  const shown = names.slice(0, 10).map(untrustedText).join(", ");
  return `; ${label}: ${shown}${names.length > 10 ? `, … (${names.length} in all)` : ""} (\`agent-tools trust list\`)`;
}

/** Says where nothing is pinned, and which other registries have pins in the same cache (a wrong --registry is the usual cause). */
async function nothingPinned(pins: Omit<Pins, "store">): Promise<string> {
  const others = (await TrustStore.registries(pins.cacheDir)).filter((registry) => registry !== pins.registry);
  const hint = others.length === 0 ? "" : `; pins exist for ${others.map(untrustedText).join(", ")} (pass --registry)`;
  return (
    `Nothing pinned for ${pins.registry} in ${pins.cacheDir}: the SDK ` +
    `pins a publisher's key and a tool's definition on first use${hint}.`
  );
}
