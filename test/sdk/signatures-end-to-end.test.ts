/**
 * Signatures end to end: a publisher registers an ed25519 key (`PUT /publishers/{name}/keys`),
 * uploads a bundle with `X-Agent-Tools-Signature`, and `AgentTools` verifies what the registry
 * stored and presents, pins the key, and asks when the publisher signs with a new one. No proxy.
 */
import { createHash, generateKeyPairSync, sign, type KeyObject } from "node:crypto";
import { describe, expect, it } from "vitest";
import { AgentTools, type TrustRequest } from "@agent-tools/sdk";
import { publicKeyId, signaturePayload } from "@agent-tools/sdk/tool-spec";
import { buildBundle, readFixtureSpec, zipFiles } from "../support/bundles.js";
import { registryForFile } from "../support/registry-for-file.js";
import { ANY_INPUT } from "./support/version-answering-tool.js";

const suite = registryForFile();
const { tempDirs } = suite;

function newKey(): { pem: string; keyId: string; privateKey: KeyObject } {
  const { publicKey, privateKey } = generateKeyPairSync("ed25519");
  return { pem: publicKey.export({ type: "spki", format: "pem" }).toString(), keyId: publicKeyId(publicKey), privateKey };
}

async function registerKey(pem: string): Promise<void> {
  const response = await fetch(`${suite.registry.url}/publishers/admin/keys`, {
    method: "PUT",
    headers: { authorization: `Bearer ${suite.registry.token}`, "content-type": "application/json" },
    body: JSON.stringify({ public_key: pem }),
  });
  expect(response.status, await response.clone().text()).toBeLessThan(300);
}

/** Uploads `toolId@version` (answering its version) signed with `key`, as `agent-tools publish --sign` does. */
async function publishSigned(toolId: string, version: string, key: ReturnType<typeof newKey>): Promise<void> {
  const spec = { ...readFixtureSpec("text-stats"), tool_id: toolId, tool_metadata: { version }, tool_api_spec: ANY_INPUT };
  const code =
    `class AgentSpaceV1Tool:\n    def __init__(self, tool_id, tool_data):\n        ` +
    `pass\n\n    def execute(self, input_data):\n        return ${JSON.stringify(version)}\n`;
  const toolZip = zipFiles({ "code/function.py": code });
  const toolMd = `# ${toolId}`;
  const tool_archive_sha256 = createHash("sha256").update(toolZip).digest("hex");
  const value = sign(null, signaturePayload({ ...spec, version, tool_man_page_doc: toolMd, tool_archive_sha256 }), key.privateKey).toString(
    "base64",
  );
  const form = new FormData();
  form.set(
    "file",
    new Blob([buildBundle({ spec, toolZip, toolMd }) as Uint8Array<ArrayBuffer>], { type: "application/zip" }),
    "bundle.zip",
  );
  const response = await fetch(`${suite.registry.url}/tools/upload`, {
    method: "POST",
    body: form,
    headers: { authorization: `Bearer ${suite.registry.token}`, "x-agent-tools-signature": `${key.keyId}:${value}` },
  });
  expect(response.status, await response.clone().text()).toBe(200);
}

describe("signatures through the registry's routes", () => {
  it("verifies what the registry stored, pins the key, and asks when the publisher signs with a new one", async () => {
    const first = newKey();
    await registerKey(first.pem);
    await publishSigned("signed-e2e", "1.0.0", first);
    const cacheDir = await tempDirs.make("agent-tools-signed-e2e-");
    const strict = new AgentTools({ toolsDbUrl: suite.registry.url, cacheDir, sandbox: "off", requireSignatures: true });
    expect(await strict.executeToolById("signed-e2e", {})).toBe("1.0.0");
    await strict.close();

    const second = newKey();
    await registerKey(second.pem);
    await publishSigned("signed-e2e", "1.1.0", second);
    const asked: TrustRequest[] = [];
    const refusing = new AgentTools({
      toolsDbUrl: suite.registry.url,
      cacheDir,
      sandbox: "off",
      onTrustRequest: (request) => {
        asked.push(request);
        return false;
      },
    });
    await expect(refusing.add("signed-e2e")).rejects.toMatchObject({ code: "PUBLISHER_KEY_CHANGE_REFUSED" });
    expect(asked).toMatchObject([{ kind: "publisher-key", owner: "admin", keyId: second.keyId, pinnedKeyIds: [first.keyId] }]);
    await refusing.close();
    const pinned = new AgentTools({ toolsDbUrl: suite.registry.url, cacheDir, sandbox: "off", trustedKeys: { admin: first.pem } });
    await expect(pinned.add("signed-e2e")).rejects.toMatchObject({ code: "SIGNATURE_KEY_UNTRUSTED" });
    expect(await pinned.executeToolById("signed-e2e@1.0.0", {})).toBe("1.0.0");
    await pinned.close();
  });
});
