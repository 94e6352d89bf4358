import { Option, type Command } from "commander";
import { readFile } from "node:fs/promises";
import { checkBundle } from "../../publish/bundle-checks.js";
import { packTool } from "../../publish/pack-tool.js";
import { ToolCheckError } from "../../publish/tool-check-error.js";
import { uploadBundle, type UploadBundleOptions } from "../../publish/upload-bundle.js";
import { printJson, withJsonOption, type CliContext } from "../cli-context.js";
import { progressBar } from "../progress-bar.js";
import { signBundle } from "../../publish/sign-bundle.js";
import { existingPath } from "./local-path.js";
import { tokenOption } from "./token-option.js";
import { printWarnings } from "./warnings.js";

export function registerPublishCommand(program: Command, context: CliContext): void {
  const { io } = context;
  withJsonOption(
    program
      .command("publish")
      .description("upload a tool folder or a bundle zip; large bundles go straight to storage")
      .argument("<tool-dir-or-bundle>", "a tool folder (packed on the fly) or a bundle .zip")
      .addOption(tokenOption())
      .addOption(new Option("--via <path>", "force the upload path").choices(["auto", "upload", "presigned"]).default("auto"))
      .option(
        "--sign <private-key.pem>",
        "sign the bundle with this ed25519 private key (its public key registered with `agent-tools key add`)",
      ),
  ).action(async (target: string, options: { token?: string; via: UploadBundleOptions["via"]; sign?: string; json?: boolean }) => {
    const token = context.writeToken(options.token);
    const registryUrl = context.registryUrl();
    const source = await existingPath(io, target);
    // A folder is checked as it is packed; a bundle file gets the same checks: nothing the registry would refuse is sent.
    const packed = source.isFile ? await checkedBundleFile(source.path) : await packTool(source.path);
    const bundle = packed.bundle;
    const signature =
      options.sign === undefined ? undefined : signBundle(bundle, await readFile((await existingPath(io, options.sign)).path, "utf8"));
    const bar = progressBar(io, `Uploading ${packed.toolId ?? target}`);
    const published = await uploadBundle(bundle, {
      registryUrl,
      token,
      via: options.via,
      onProgress: bar.update,
      ...(signature === undefined ? {} : { signature: signature.header }),
    }).finally(() => bar.finish());
    const warnings = [...new Set([...(published.warnings ?? []), ...packed.warnings])];
    if (options.json) {
      printJson(io, {
        tool_id: published.tool_id,
        version: published.version,
        via: published.via,
        bytes: bundle.byteLength,
        warnings,
        ...(signature === undefined ? {} : { key_id: signature.keyId }),
      });
      return;
    }
    io.out(
      `Published ${published.tool_id}@${published.version} via ${published.via === "upload" ? "/tools/upload" : "presigned upload"} ` +
        `(${bundle.byteLength} bytes)${signature === undefined ? "" : `, signed by ${signature.keyId}`}\n`,
    );
    printWarnings(io, warnings);
  });
}

/** A bundle zip from disk, checked as `pack` checks what it builds (`checkBundle`). */
async function checkedBundleFile(path: string): Promise<{ bundle: Uint8Array; toolId: string | undefined; warnings: string[] }> {
  const bundle = new Uint8Array(await readFile(path));
  const check = await checkBundle(bundle);
  if (check.problems.length > 0) throw new ToolCheckError(check.toolId, check.problems);
  return { bundle, toolId: check.toolId, warnings: check.warnings };
}
