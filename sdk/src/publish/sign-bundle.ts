import { createHash, createPrivateKey, createPublicKey, sign, type KeyObject } from "node:crypto";
import { unzipSync } from "fflate";
import semver from "semver";
import { AgentToolsError } from "../errors.js";
import { platformArchives } from "../tool-spec/archive-digest.js";
import { publicKeyId, signaturePayload } from "../tool-spec/publisher-signature.js";
import type { PlatformArchive, ToolPlatform } from "../tool-spec/tool-platforms.js";

/** A publisher's signature over one bundle, ready to send as `X-Agent-Tools-Signature`. */
export interface BundleSignature {
  toolId: string;
  version: string;
  /** `sha256:` + hex sha256 of the public key's SPKI DER bytes. */
  keyId: string;
  /** Base64 ed25519 signature. */
  value: string;
  /** `<keyId>:<value>`: the header's value. */
  header: string;
}

/** The bundle or the key cannot be signed (not a bundle, not ed25519): nothing was uploaded. */
export class BundleSigningError extends AgentToolsError {
  constructor(message: string) {
    super("BUNDLE_SIGNING_FAILED", message);
  }
}

const FILES = ["spec.json", "tool.md", "tool.zip"];
/** A further platform's archive beside tool.zip (docs/authoring.md#platforms). */
const PLATFORM_ARCHIVE = /^tool-[^/]+\.zip$/;

/**
 * Signs a bundle zip with an ed25519 private key (PEM, PKCS#8), over exactly what the registry
 * verifies (docs/design/publisher-trust.md, "Signatures"): the tool id, the version as the registry
 * reads it (`tool_metadata.version` as normalised semver, `0.0.0` when absent), the sha256 of
 * `tool.zip`, and the definition digest of spec.json with tool.md as its man page.
 *
 *   const signature = signBundle(bundle, readFileSync("acme-ed25519.pem", "utf8"));
 *   await uploadBundle(bundle, { registryUrl, token, signature: signature.header });
 */
export function signBundle(bundle: Uint8Array, privateKey: string | KeyObject): BundleSignature {
  const key = signingKey(privateKey);
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(bundle, { filter: (file) => FILES.includes(file.name) || PLATFORM_ARCHIVE.test(file.name) });
  } catch (error) {
    throw new BundleSigningError(`cannot sign: the bundle is not a readable zip (${(error as Error).message}).`);
  }
  const missing = FILES.filter((name) => files[name] === undefined);
  if (missing.length > 0) throw new BundleSigningError(`cannot sign: the bundle has no ${missing.join(", ")} at its root.`);
  const spec = parseSpec(files["spec.json"]!);
  const toolId = typeof spec.tool_id === "string" ? spec.tool_id : "";
  if (toolId === "") throw new BundleSigningError("cannot sign: spec.json has no tool_id.");
  const version = versionOf(spec);
  const entry = {
    ...spec,
    tool_id: toolId,
    version,
    tool_man_page_doc: text(files["tool.md"]!, "tool.md"),
    tool_archive_sha256: createHash("sha256").update(files["tool.zip"]!).digest("hex"),
    ...platformArchivesOf(spec, files),
  };
  const keyId = publicKeyId(createPublicKey(key));
  const value = sign(null, signaturePayload(entry), key).toString("base64");
  return { toolId, version, keyId, value, header: `${keyId}:${value}` };
}

/** `tool_platform_archives` as the registry will record it from the same bundle: a platform whose archive is missing cannot be signed. */
function platformArchivesOf(
  spec: Record<string, unknown>,
  files: Record<string, Uint8Array>,
): { tool_platform_archives?: PlatformArchive[] } {
  if (!Array.isArray(spec.tool_platforms)) return {};
  const platforms = spec.tool_platforms as ToolPlatform[];
  return {
    tool_platform_archives: platformArchives(platforms, (name) => {
      const bytes = files[name];
      if (bytes === undefined)
        throw new BundleSigningError(`cannot sign: spec.json declares tool_platforms, but the bundle has no ${name}.`);
      return bytes;
    }),
  };
}

function signingKey(privateKey: string | KeyObject): KeyObject {
  let key: KeyObject;
  try {
    key = typeof privateKey === "string" ? createPrivateKey(privateKey) : privateKey;
  } catch (error) {
    throw new BundleSigningError(
      `the signing key is not a PEM private key (${(error as Error).message}); ` +
        `create one with: openssl genpkey -algorithm ed25519 -out publisher.pem`,
    );
  }
  if (key.type !== "private" || key.asymmetricKeyType !== "ed25519") {
    throw new BundleSigningError(
      `the signing key is ${key.asymmetricKeyType ?? key.type}, not an ed25519 private ` +
        `key; create one with: openssl genpkey -algorithm ed25519 -out publisher.pem`,
    );
  }
  return key;
}

function parseSpec(bytes: Uint8Array): Record<string, unknown> {
  let spec: unknown;
  try {
    spec = JSON.parse(text(bytes, "spec.json"));
  } catch (error) {
    if (error instanceof BundleSigningError) throw error;
    throw new BundleSigningError(`cannot sign: spec.json is not valid JSON (${(error as Error).message}).`);
  }
  if (typeof spec !== "object" || spec === null || Array.isArray(spec))
    throw new BundleSigningError("cannot sign: spec.json is not a JSON object.");
  return spec as Record<string, unknown>;
}

/** UTF-8 with a leading BOM dropped, as the registry reads spec.json and tool.md. */
function text(bytes: Uint8Array, name: string): string {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new BundleSigningError(`cannot sign: ${name} is not UTF-8 text.`);
  }
}

function versionOf(spec: Record<string, unknown>): string {
  const metadata = spec.tool_metadata;
  const declared = typeof metadata === "object" && metadata !== null ? (metadata as Record<string, unknown>).version : undefined;
  if (declared === undefined || declared === null) return "0.0.0";
  const version = typeof declared === "string" ? semver.valid(declared) : null;
  if (version === null)
    throw new BundleSigningError(`cannot sign: tool_metadata.version ${JSON.stringify(declared)} is not semantic versioning.`);
  return version;
}
