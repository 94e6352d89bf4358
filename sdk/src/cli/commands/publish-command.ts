import { Option, type Command } from "commander";
import { readFile } from "node:fs/promises";
import { packTool } from "../../publish/pack-tool.js";
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
    const packed = source.isFile ? undefined : await packTool(source.path);
    const bundle = packed?.bundle ?? new Uint8Array(await readFile(source.path));
    const signature =
      options.sign === undefined ? undefined : signBundle(bundle, await readFile((await existingPath(io, options.sign)).path, "utf8"));
    const bar = progressBar(io, `Uploading ${packed?.toolId ?? target}`);
    const published = await uploadBundle(bundle, {
      registryUrl,
      token,
      via: options.via,
      onProgress: bar.update,
      ...(signature === undefined ? {} : { signature: signature.header }),
    }).finally(() => bar.finish());
    const warnings = [...new Set([...(published.warnings ?? []), ...(packed?.warnings ?? [])])];
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
      `Published ${published.tool_id}@${published.version} via ${published.via === "upload" ? "/tools/upload" : "presigned upload"} (${bundle.byteLength} bytes)${signature === undefined ? "" : `, signed by ${signature.keyId}`}\n`,
    );
    printWarnings(io, warnings);
  });
}
