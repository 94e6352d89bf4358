/**
 * Publisher signatures in the SDK, against a real registry with real archives and real ed25519
 * keys: verified before anything is downloaded, the owner's key pinned on first use, a key change
 * asked through the permission engine (BYPASS cannot answer it), `trustedKeys` and
 * `requireSignatures`. Owners, signatures and `GET /publishers/{name}/keys` come from a proxy in
 * front of the registry, as a registry (or a hostile one) would present them.
 */
import { generateKeyPairSync, sign, type KeyObject } from "node:crypto";
import { readFile, readdir } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AgentTools, type AgentToolsError, PermissionEngine, PermissionMode, TrustError, type TrustRequest } from "@agent-tools/sdk";
import { publicKeyId, signaturePayload, type SignedVersion } from "@agent-tools/sdk/tool-spec";
import { startTestRegistry, type TestRegistry } from "../support/registry.js";
import { startTamperingProxy, type TamperingProxy } from "./support/tampering-proxy.js";
import { TempDirs } from "./support/temp-dirs.js";
import { publishVersionAnswering } from "./support/version-answering-tool.js";

interface Publisher {
  pem: string;
  keyId: string;
  privateKey: KeyObject;
}

/** An onTrustRequest that records each question and answers `answer`. */
function answering(asked: TrustRequest[], answer: boolean) {
  return (request: TrustRequest) => {
    asked.push(request);
    return answer;
  };
}

function newPublisherKey(): Publisher {
  const { publicKey, privateKey } = generateKeyPairSync("ed25519");
  const pem = publicKey.export({ type: "spki", format: "pem" }).toString();
  return { pem, keyId: publicKeyId(publicKey), privateKey };
}

const acmeKey = newPublisherKey();
const acmeNewKey = newPublisherKey();
const betaKey = newPublisherKey();

let registry: TestRegistry;
let proxy: TamperingProxy;
const tempDirs = new TempDirs();
/** How the proxy presents each `tool_id@version`: its owner and what it does to the signature. */
const presented = new Map<string, (entry: Record<string, unknown>) => Record<string, unknown>>();
/** What `GET /publishers/{name}/keys` answers, per publisher. */
const registeredKeys = new Map<string, unknown>();
const keyRequests: string[] = [];

beforeAll(async () => {
  registry = await startTestRegistry();
  proxy = await startTamperingProxy(
    registry.url,
    (body) => (Array.isArray(body) ? body.map(present) : present(body)) as Record<string, unknown>,
    new Uint8Array(),
    (path) => {
      const match = /^\/publishers\/([^/]+)\/keys$/.exec(path);
      if (match === null) return undefined;
      keyRequests.push(match[1]!);
      return registeredKeys.get(match[1]!) ?? [];
    },
  );
  registeredKeys.set("acme", [{ key_id: acmeKey.keyId, public_key: acmeKey.pem, created_at: "2026-01-01T00:00:00Z" }]);
  registeredKeys.set("beta", [{ key_id: betaKey.keyId, public_key: betaKey.pem, created_at: "2026-01-01T00:00:00Z" }]);
});
afterAll(async () => {
  await proxy?.close();
  await registry?.close();
  await tempDirs.removeAll();
});

function present(entry: Record<string, unknown>): Record<string, unknown> {
  const rewrite = presented.get(`${String(entry.tool_id)}@${String(entry.version)}`);
  return rewrite === undefined ? entry : rewrite(entry);
}

/** The entry as `owner` signed it with `key` (over `signedEntry`, the entry itself unless given). */
function signedBy(owner: string, key: Publisher, change: (entry: Record<string, unknown>) => Record<string, unknown> = (entry) => entry) {
  return (entry: Record<string, unknown>) => {
    const value = sign(null, signaturePayload(change(entry) as SignedVersion), key.privateKey).toString("base64");
    return { ...entry, owner, signature: { key_id: key.keyId, value } };
  };
}

async function publish(toolId: string, version = "1.0.0"): Promise<void> {
  await publishVersionAnswering(registry, toolId, version);
}

async function agent(options: ConstructorParameters<typeof AgentTools>[0] = {}) {
  const cacheDir = await tempDirs.make("agent-tools-signatures-");
  return { tools: new AgentTools({ toolsDbUrl: proxy.url, cacheDir, sandbox: "off", ...options }), cacheDir };
}

async function refusal(promise: Promise<unknown>): Promise<TrustError> {
  const error = await promise.catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(TrustError);
  return error as TrustError;
}

async function downloadedArchives(cacheDir: string): Promise<string[]> {
  return readdir(join(cacheDir, "archives")).catch(() => []);
}

describe("publisher signatures", () => {
  it("verifies a signed version against its owner's registered key, pins that key, and runs it", async () => {
    await publish("signed-tool");
    presented.set("signed-tool@1.0.0", signedBy("acme", acmeKey));
    const { tools, cacheDir } = await agent({ requireSignatures: true });
    await tools.add("signed-tool");
    expect(await tools.executeToolById("signed-tool", {})).toBe("1.0.0");
    const pins = JSON.parse(await readFile(join(cacheDir, "trust", encodeURIComponent(proxy.url), "publishers", "acme.json"), "utf8"));
    expect(pins.keys).toEqual([{ key_id: acmeKey.keyId, public_key: acmeKey.pem, pinned_at: expect.any(String) }]);
    await tools.close();
  });

  it("runs unsigned tools by default, and refuses them with requireSignatures", async () => {
    await publish("unsigned-tool");
    const { tools } = await agent();
    await tools.add("unsigned-tool");
    await tools.close();
    const { tools: strict, cacheDir } = await agent({ requireSignatures: true });
    const error = await refusal(strict.add("unsigned-tool"));
    expect(error.code).toBe("SIGNATURE_REQUIRED");
    expect(error.message).toBe(
      'Tool "unsigned-tool" version 1.0.0 is not signed, and requireSignatures is on. Ask its ' +
        "publisher to publish it with `agent-tools publish --sign <key>`, or pick a signed tool.",
    );
    expect(await downloadedArchives(cacheDir)).toEqual([]);
    await strict.close();
  });

  it("refuses a signature over other bytes (a changed description, another archive) before downloading anything", async () => {
    await publish("tampered-tool");
    const { tools, cacheDir } = await agent();
    presented.set(
      "tampered-tool@1.0.0",
      signedBy("acme", acmeKey, (entry) => ({ ...entry, tool_search_description: "what the publisher signed" })),
    );
    const changed = await refusal(tools.add("tampered-tool"));
    expect(changed.code).toBe("SIGNATURE_INVALID");
    expect(changed.message).toMatch(
      /does not verify, so its archive digest or definition changed after it was signed\. Nothing was downloaded/,
    );
    presented.set(
      "tampered-tool@1.0.0",
      signedBy("acme", acmeKey, (entry) => ({ ...entry, tool_archive_sha256: "a".repeat(64) })),
    );
    expect((await refusal(tools.add("tampered-tool"))).code).toBe("SIGNATURE_INVALID");
    expect(await downloadedArchives(cacheDir)).toEqual([]);
    // Never a silent downgrade either: a bad signature is refused without requireSignatures too.
    await tools.close();
  });

  it("refuses a signature made with another publisher's key", async () => {
    await publish("borrowed-key-tool");
    presented.set("borrowed-key-tool@1.0.0", signedBy("acme", betaKey));
    const { tools } = await agent();
    const error = await refusal(tools.add("borrowed-key-tool"));
    expect(error.code).toBe("SIGNATURE_KEY_UNKNOWN");
    expect(error.message).toContain(`is signed by ${betaKey.keyId}, which is not a key of its owner "acme" at the registry`);
    await tools.close();
  });

  it("ignores a listed key whose key_id is not the key's own, and refuses revoked keys", async () => {
    await publish("relabelled-tool");
    presented.set("relabelled-tool@1.0.0", signedBy("gamma", betaKey));
    registeredKeys.set("gamma", [{ key_id: betaKey.keyId, public_key: acmeKey.pem }]);
    const { tools } = await agent();
    expect((await refusal(tools.add("relabelled-tool"))).code).toBe("SIGNATURE_KEY_UNKNOWN");
    registeredKeys.set("delta", [{ key_id: betaKey.keyId, public_key: betaKey.pem, revoked_at: "2026-06-01T00:00:00Z" }]);
    presented.set("relabelled-tool@1.0.0", signedBy("delta", betaKey));
    const revoked = await refusal(tools.add("relabelled-tool"));
    expect(revoked.code).toBe("SIGNATURE_KEY_REVOKED");
    expect(revoked.message).toContain('which its publisher "delta" has revoked');
    await tools.close();
  });

  it("asks through the permission engine when an owner's key changes; BYPASS and allow rules cannot answer", async () => {
    await publish("rotating-tool", "1.0.0");
    await publish("rotating-tool", "2.0.0");
    registeredKeys.set("rotor", [{ key_id: acmeKey.keyId, public_key: acmeKey.pem }]);
    presented.set("rotating-tool@1.0.0", signedBy("rotor", acmeKey));
    presented.set("rotating-tool@2.0.0", signedBy("rotor", acmeNewKey));
    const cacheDir = await tempDirs.make("agent-tools-rotation-");
    const first = new AgentTools({ toolsDbUrl: proxy.url, cacheDir, sandbox: "off" });
    await first.add("rotating-tool@1.0.0"); // pins acmeKey for rotor
    await first.close();
    registeredKeys.set("rotor", [
      { key_id: acmeKey.keyId, public_key: acmeKey.pem },
      { key_id: acmeNewKey.keyId, public_key: acmeNewKey.pem },
    ]);

    const bypass = new AgentTools({
      toolsDbUrl: proxy.url,
      cacheDir,
      sandbox: "off",
      permissions: new PermissionEngine({ mode: PermissionMode.BYPASS, allow: ["PublisherKey"] }),
    });
    const refused = await refusal(bypass.add("rotating-tool@2.0.0"));
    expect(refused.code).toBe("PUBLISHER_KEY_CHANGE_REFUSED");
    expect(refused.message).toContain(
      `Publisher "rotor" now signs "rotating-tool" with key ${acmeNewKey.keyId}; until now this SDK trusted only ${acmeKey.keyId}`,
    );
    await bypass.close();

    const asked: TrustRequest[] = [];
    const denied = new AgentTools({
      toolsDbUrl: proxy.url,
      cacheDir,
      sandbox: "off",
      permissions: new PermissionEngine({ deny: [`PublisherKey(rotor:${acmeNewKey.keyId})`] }),
      onTrustRequest: answering(asked, true),
    });
    expect((await refusal(denied.add("rotating-tool@2.0.0"))).code).toBe("PUBLISHER_KEY_CHANGE_REFUSED");
    expect(asked).toEqual([]);
    await denied.close();

    const accepting = new AgentTools({ toolsDbUrl: proxy.url, cacheDir, sandbox: "off", onTrustRequest: answering(asked, true) });
    await accepting.add("rotating-tool@2.0.0");
    expect(await accepting.executeToolById("rotating-tool", {})).toBe("2.0.0");
    expect(asked).toEqual([
      {
        kind: "publisher-key",
        toolId: "rotating-tool",
        owner: "rotor",
        keyId: acmeNewKey.keyId,
        pinnedKeyIds: [acmeKey.keyId],
        message: expect.stringContaining("Accept the new key only if the publisher announced the change."),
      },
    ]);
    await accepting.close();
    // Accepted once, remembered: no second question.
    const later = new AgentTools({ toolsDbUrl: proxy.url, cacheDir, sandbox: "off", onTrustRequest: answering(asked, false) });
    await later.add("rotating-tool@2.0.0");
    expect(asked).toHaveLength(1);
    await later.close();
  });

  it("asks again when a registry hands a tool to another publisher, even one whose own signature verifies", async () => {
    await publish("reowned-tool", "1.0.0");
    await publish("reowned-tool", "1.1.0");
    presented.set("reowned-tool@1.0.0", signedBy("acme", acmeKey));
    presented.set("reowned-tool@1.1.0", signedBy("beta", betaKey));
    const cacheDir = await tempDirs.make("agent-tools-reowned-");
    const first = new AgentTools({ toolsDbUrl: proxy.url, cacheDir, sandbox: "off" });
    await first.executeToolById("reowned-tool@1.0.0", {});
    await first.close();
    const asked: TrustRequest[] = [];
    const tools = new AgentTools({ toolsDbUrl: proxy.url, cacheDir, sandbox: "off", onTrustRequest: answering(asked, false) });
    await tools.add("reowned-tool"); // beta's key verifies, and beta had no pin yet
    await expect(tools.executeToolById("reowned-tool", {})).rejects.toMatchObject({ code: "DEFINITION_CHANGE_REFUSED" });
    expect(asked).toMatchObject([{ kind: "tool-definition", toolId: "reowned-tool", changes: ['~ publisher: "acme" → "beta"'] }]);
    expect(asked[0]?.message).toContain("its publisher changed");
    await tools.close();
  });

  it("asks again when a signed tool comes back unsigned, and not when an unsigned one starts signing", async () => {
    await publish("unsigning-tool", "1.0.0");
    await publish("unsigning-tool", "1.1.0");
    presented.set("unsigning-tool@1.0.0", signedBy("acme", acmeKey));
    presented.set("unsigning-tool@1.1.0", (entry) => ({ ...entry, owner: "acme" }));
    const cacheDir = await tempDirs.make("agent-tools-unsigning-");
    const first = new AgentTools({ toolsDbUrl: proxy.url, cacheDir, sandbox: "off" });
    await first.executeToolById("unsigning-tool@1.0.0", {});
    await first.close();
    const asked: TrustRequest[] = [];
    const tools = new AgentTools({ toolsDbUrl: proxy.url, cacheDir, sandbox: "off", onTrustRequest: answering(asked, true) });
    expect(await tools.executeToolById("unsigning-tool", {})).toBe("1.1.0");
    expect(asked).toMatchObject([{ kind: "tool-definition", changes: ["~ signed: true → false"] }]);
    expect(asked[0]?.message).toContain("its signature changed");
    await tools.close();

    await publish("starts-signing", "1.0.0");
    await publish("starts-signing", "1.1.0");
    presented.set("starts-signing@1.0.0", (entry) => ({ ...entry, owner: "acme" }));
    presented.set("starts-signing@1.1.0", signedBy("acme", acmeKey));
    const quiet = new AgentTools({ toolsDbUrl: proxy.url, cacheDir, sandbox: "off", onTrustRequest: answering(asked, false) });
    await quiet.executeToolById("starts-signing@1.0.0", {});
    await quiet.add("starts-signing");
    expect(await quiet.executeToolById("starts-signing", {})).toBe("1.1.0");
    expect(asked).toHaveLength(1);
    await quiet.close();
  });

  it("with trustedKeys, verifies against the configured keys only, without asking the registry", async () => {
    await publish("configured-tool");
    presented.set("configured-tool@1.0.0", signedBy("acme", acmeKey));
    keyRequests.length = 0;
    const { tools } = await agent({ trustedKeys: { acme: [acmeKey.pem] } });
    await tools.add("configured-tool");
    expect(keyRequests).toEqual([]);
    await tools.close();
    const { tools: other } = await agent({ trustedKeys: { acme: acmeNewKey.pem } });
    const error = await refusal(other.add("configured-tool"));
    expect(error.code).toBe("SIGNATURE_KEY_UNTRUSTED");
    expect(error.message).toContain('which is not among the keys trustedKeys configures for "acme"');
    await other.close();
    const rsa = generateKeyPairSync("rsa", { modulusLength: 1024 }).publicKey.export({ type: "spki", format: "pem" }).toString();
    expect(() => new AgentTools({ toolsDbUrl: proxy.url, trustedKeys: { acme: ["not a key", rsa] } })).toThrow(
      "trustedKeys.acme[0] is not an ed25519 public key in PEM (SPKI) form; " +
        "trustedKeys.acme[1] is not an ed25519 public key in PEM (SPKI) form.",
    );
  });

  it("with trustedKeys, refuses the publisher's tool when the registry strips its signature, in a fresh cache too", async () => {
    await publish("stripped-tool");
    presented.set("stripped-tool@1.0.0", (entry) => ({ ...entry, owner: "acme", signature: undefined }));
    const { tools, cacheDir } = await agent({ trustedKeys: { acme: acmeKey.pem } });
    const error = await refusal(tools.add("stripped-tool"));
    expect(error.code).toBe("SIGNATURE_REQUIRED");
    expect(error.message).toBe(
      'Tool "stripped-tool" version 1.0.0 is not signed, and trustedKeys names keys for ' +
        'its publisher "acme", so its tools must be signed with one of them. Ask its publisher ' +
        "to publish it with `agent-tools publish --sign <key>`, or pick a signed tool.",
    );
    expect(await downloadedArchives(cacheDir)).toEqual([]);
    // The signed one runs with the configured key.
    presented.set("stripped-tool@1.0.0", signedBy("acme", acmeKey));
    expect(await tools.executeToolById("stripped-tool", {})).toBe("1.0.0");
    await tools.close();
    // Another publisher's unsigned tool still runs: only the publishers named in trustedKeys must sign.
    presented.set("stripped-tool@1.0.0", (entry) => ({ ...entry, owner: "beta", signature: undefined }));
    const { tools: other } = await agent({ trustedKeys: { acme: acmeKey.pem } });
    expect(await other.executeToolById("stripped-tool", {})).toBe("1.0.0");
    await other.close();
  });

  it("refuses malformed signature fields from a hostile registry with a clear error, and stays usable", async () => {
    await publish("hostile-signature");
    const { tools } = await agent();
    const good = signedBy("acme", acmeKey);
    const cases: Array<[string, (entry: Record<string, unknown>) => Record<string, unknown>]> = [
      ["a string", (entry) => ({ ...entry, owner: "acme", signature: "c2lnbmVk" })],
      ["a list", (entry) => ({ ...entry, owner: "acme", signature: [1] })],
      [
        "another key id form",
        (entry) => ({ ...good(entry), signature: { key_id: "md5:abc", value: (good(entry).signature as { value: string }).value } }),
      ],
      ["a short value", (entry) => ({ ...good(entry), signature: { key_id: acmeKey.keyId, value: "AAAA" } })],
      ["a value that is not base64", (entry) => ({ ...good(entry), signature: { key_id: acmeKey.keyId, value: `${"!".repeat(86)}==` } })],
      ["no owner", (entry) => ({ ...good(entry), owner: undefined })],
    ];
    for (const [what, rewrite] of cases) {
      presented.set("hostile-signature@1.0.0", rewrite);
      const error = await refusal(tools.add("hostile-signature"));
      expect(error.code, what).toBe("SIGNATURE_MALFORMED");
      expect(error.message).toMatch(/carries a malformed signature: .*The registry sent something no publisher signed/);
    }
    // An owner that is no publisher name never reaches the signature check (or the pin folder): the entry's shape is refused first.
    presented.set("hostile-signature@1.0.0", (entry) => ({ ...good(entry), owner: "../../etc" }));
    expect(await tools.add("hostile-signature").catch((error: AgentToolsError) => error.code)).toBe("REGISTRY_ENTRY_INVALID");
    // A flood of listed keys is read only up to 100: the real one past them is not found.
    registeredKeys.set("acme-flood", [
      ...Array.from({ length: 150 }, () => ({ key_id: "sha256:00", public_key: "x" })),
      { key_id: acmeKey.keyId, public_key: acmeKey.pem },
    ]);
    presented.set("hostile-signature@1.0.0", signedBy("acme-flood", acmeKey));
    expect((await refusal(tools.add("hostile-signature"))).code).toBe("SIGNATURE_KEY_UNKNOWN");
    registeredKeys.set("acme-broken", { not: "a list" });
    presented.set("hostile-signature@1.0.0", signedBy("acme-broken", acmeKey));
    expect((await refusal(tools.add("hostile-signature"))).code).toBe("SIGNATURE_KEY_UNKNOWN");
    presented.set("hostile-signature@1.0.0", good);
    await tools.add("hostile-signature");
    expect(await tools.executeToolById("hostile-signature", {})).toBe("1.0.0");
    await tools.close();
  });
});
