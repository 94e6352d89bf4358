// Signed bundles on the registry side (docs/design/publisher-trust.md, "Signatures"): keys
// registered per publisher, `publish --sign` through the CLI on both upload paths, the signature
// verified before anything is stored and presented with the version, and every bad signature or
// key a clear 4xx that changes nothing.
import { generateKeyPairSync, sign, verify, type KeyObject } from "node:crypto";
import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signaturePayload } from "@agent-tools/sdk/tool-spec";
import { runCliCaptured } from "../../sdk/support/captured-cli.js";
import { EXIT } from "../../../sdk/src/cli/exit-codes.js";
import { signBundle } from "../../../sdk/src/publish/sign-bundle.js";
import { FIXTURE_TOOLS_DIR, fixtureBundle } from "../../support/bundles.js";
import { startTestRegistry, type TestRegistry } from "../../support/registry.js";
import { storageSnapshot } from "../storage/storage-snapshot.js";

let registry: TestRegistry;
let workDir: string;
let acme: string;
let globex: string;
const keys: Record<string, { privateKey: KeyObject; publicPem: string; privateFile: string; publicFile: string }> = {};

beforeAll(async () => {
  [registry, workDir] = await Promise.all([startTestRegistry(), mkdtemp(join(tmpdir(), "agent-tools-signing-"))]);
  for (const name of ["acme-a", "acme-b", "globex", "admin"]) {
    const pair = generateKeyPairSync("ed25519");
    const privateFile = join(workDir, `${name}.pem`);
    const publicFile = join(workDir, `${name}.pub.pem`);
    const publicPem = pair.publicKey.export({ type: "spki", format: "pem" }).toString();
    await writeFile(privateFile, pair.privateKey.export({ type: "pkcs8", format: "pem" }).toString());
    await writeFile(publicFile, publicPem);
    keys[name] = { privateKey: pair.privateKey, publicPem, privateFile, publicFile };
  }
  acme = await mint("acme", ["acme-*"]);
  globex = await mint("globex", ["globex-*"]);
});
afterAll(async () => {
  await registry?.close();
  await rm(workDir, { recursive: true, force: true });
});

async function mint(name: string, scope: string[]): Promise<string> {
  const response = await fetch(`${registry.url}/tokens`, {
    method: "POST",
    headers: { authorization: `Bearer ${registry.token}` },
    body: JSON.stringify({ name, scope, actions: ["publish", "update"] }),
  });
  return ((await response.json()) as { token: string }).token;
}

function cli(...args: string[]) {
  return runCliCaptured([...args, "--registry", registry.url], workDir);
}

async function call(method: string, path: string, token: string, body?: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${registry.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json", ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> & { detail?: string } };
}

async function upload(token: string, bundle: Uint8Array, signature?: string) {
  const form = new FormData();
  form.set("file", new Blob([bundle as Uint8Array<ArrayBuffer>]), "bundle.zip");
  const response = await fetch(`${registry.url}/tools/upload`, {
    method: "POST",
    body: form,
    headers: { authorization: `Bearer ${token}`, ...(signature === undefined ? {} : { "x-agent-tools-signature": signature }) },
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> & { detail?: string } };
}

const bundleOf = async (toolId: string, version = "1.0.0", spec: Record<string, unknown> = {}) =>
  (await fixtureBundle("text-stats", { spec: { tool_id: toolId, ...spec }, version })).bundle;

/** A copy of the example tool in the work folder, under another id. */
async function toolFolder(toolId: string, version: string): Promise<string> {
  const dir = join(workDir, `${toolId}-${version}`);
  await cp(join(FIXTURE_TOOLS_DIR, "text-stats"), dir, { recursive: true });
  const spec = JSON.parse(await readFile(join(dir, "spec.json"), "utf8")) as Record<string, unknown>;
  await writeFile(
    join(dir, "spec.json"),
    JSON.stringify({ ...spec, tool_id: toolId, tool_metadata: { ...(spec.tool_metadata as object), version } }),
  );
  return dir;
}

/** What the SDK will check: the presented entry's signature verifies over the contract's bytes with the registered key. */
function verifiesAgainst(entry: Record<string, unknown>, publicPem: string): boolean {
  const signature = entry.signature as { value: string };
  return verify(
    null,
    signaturePayload(entry as unknown as Parameters<typeof signaturePayload>[0]),
    publicPem,
    Buffer.from(signature.value, "base64"),
  );
}

describe("publisher keys", () => {
  it("are registered by their publisher with the CLI, listed publicly, and belong to one publisher only", async () => {
    const added = await cli("key", "add", "acme", keys["acme-a"]!.publicFile, "--json", "--token", acme);
    expect(added.status, added.err).toBe(EXIT.ok);
    const registered = JSON.parse(added.out) as Record<string, unknown>;
    expect(registered.key_id).toMatch(/^sha256:[0-9a-f]{64}$/);
    const again = await call("PUT", "/publishers/acme/keys", acme, { public_key: keys["acme-a"]!.publicPem });
    expect(again.status).toBe(200);
    expect(again.body.key_id).toBe(registered.key_id);
    expect((await call("PUT", "/publishers/acme/keys", registry.token, { public_key: keys["acme-b"]!.publicPem })).status).toBe(201);
    expect((await call("PUT", "/publishers/globex/keys", globex, { public_key: keys.globex!.publicPem })).status).toBe(201);
    expect((await call("PUT", "/publishers/admin/keys", registry.token, { public_key: keys.admin!.publicPem })).status).toBe(201);

    const listed = (await (await fetch(`${registry.url}/publishers/acme/keys`)).json()) as Record<string, unknown>[];
    expect(listed.map((key) => key.key_id)).toHaveLength(2);
    expect(listed[0]).toEqual({ key_id: registered.key_id, public_key: keys["acme-a"]!.publicPem, created_at: expect.any(String) });

    const before = await storageSnapshot(registry.local);
    const rsa = generateKeyPairSync("rsa", { modulusLength: 1024 }).publicKey.export({ type: "spki", format: "pem" }).toString();
    const cases: [string, string, unknown, number, RegExp][] = [
      [
        "/publishers/globex/keys",
        acme,
        { public_key: keys["acme-a"]!.publicPem },
        403,
        /Publisher "acme" cannot change the keys of "globex"/,
      ],
      [
        "/publishers/globex/keys",
        globex,
        { public_key: keys["acme-a"]!.publicPem },
        409,
        /is registered for publisher "acme"; a key signs for one publisher only/,
      ],
      ["/publishers/acme/keys", acme, { public_key: rsa }, 422, /is a rsa key; signatures here are ed25519/],
      [
        "/publishers/acme/keys",
        acme,
        { public_key: "-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n" },
        422,
        /not a PEM public key/,
      ],
      ["/publishers/acme/keys", acme, { public_key: keys["acme-a"]!.publicPem, publisher: "globex" }, 422, /and nothing else/],
      ["/publishers/acme/keys", acme, { public_key: "x".repeat(5000) }, 422, /at most 4096/],
      ["/publishers/Acme%20Corp/keys", registry.token, { public_key: keys["acme-a"]!.publicPem }, 400, /is not a publisher name/],
    ];
    for (const [path, token, body, status, detail] of cases) {
      const answer = await call("PUT", path, token, body);
      expect(answer.status, `${path} ${JSON.stringify(body).slice(0, 60)}`).toBe(status);
      expect(answer.body.detail).toMatch(detail);
    }
    expect(await storageSnapshot(registry.local)).toEqual(before);
  });
});

describe("publish --sign", () => {
  it("signs on both upload paths; the registry stores and presents a signature the SDK can verify", async () => {
    for (const via of ["upload", "presigned"]) {
      const folder = await toolFolder("acme-signed", via === "upload" ? "1.0.0" : "1.1.0");
      const published = await cli("publish", folder, "--sign", keys["acme-a"]!.privateFile, "--via", via, "--json", "--token", acme);
      expect(published.status, published.err).toBe(EXIT.ok);
      expect(JSON.parse(published.out)).toMatchObject({ tool_id: "acme-signed", via });
    }
    for (const version of ["1.0.0", "1.1.0"]) {
      const entry = (await (await fetch(`${registry.url}/tools/acme-signed/versions/${version}`)).json()) as Record<string, unknown>;
      expect(entry).toMatchObject({ owner: "acme", signature: { key_id: expect.stringMatching(/^sha256:/) } });
      expect(verifiesAgainst(entry, keys["acme-a"]!.publicPem)).toBe(true);
      expect(verifiesAgainst(entry, keys["acme-b"]!.publicPem)).toBe(false);
    }
    // The admin may publish acme's tool, signed with acme's key, not its own.
    const bundle = await bundleOf("acme-signed", "1.2.0");
    expect((await upload(registry.token, bundle, signBundle(bundle, keys.admin!.privateKey).header)).status).toBe(403);
    expect((await upload(registry.token, bundle, signBundle(bundle, keys["acme-b"]!.privateKey).header)).status).toBe(200);
  });

  it("refuses a bad signature or key with a clear 4xx before anything is stored, a new id included", async () => {
    const signedOther = signBundle(
      await bundleOf("acme-fresh", "1.0.0", { tool_search_description: "what was signed" }),
      keys["acme-a"]!.privateKey,
    );
    const bundle = await bundleOf("acme-fresh", "1.0.0", { tool_search_description: "what was uploaded" });
    const valid = signBundle(bundle, keys["acme-a"]!.privateKey);
    const before = await storageSnapshot(registry.local);
    const cases: [string, number, RegExp][] = [
      [signedOther.header, 422, /the signature does not match acme-fresh@1\.0\.0 as uploaded: it was made over other bytes/],
      [signBundle(await bundleOf("acme-fresh", "1.0.1"), keys["acme-a"]!.privateKey).header, 422, /made over other bytes/],
      [signBundle(bundle, keys.globex!.privateKey).header, 403, /belongs to publisher "globex", but acme-fresh belongs to "acme"/],
      [
        signBundle(bundle, generateKeyPairSync("ed25519").privateKey).header,
        422,
        /is not registered; register its public key first \(agent-tools key add acme/,
      ],
      [`${valid.keyId}:${"A".repeat(86)}==`, 422, /made over other bytes/],
      [valid.value, 422, /must be "<key_id>:<base64 ed25519 signature>"/],
      [`${valid.keyId}:not-base64`, 422, /must be "<key_id>:<base64/],
      [`sha256:XYZ:${valid.value}`, 422, /must be "<key_id>:<base64/],
    ];
    for (const [header, status, detail] of cases) {
      const answer = await upload(acme, bundle, header);
      expect(answer.status, header.slice(0, 40)).toBe(status);
      expect(answer.body.detail).toMatch(detail);
    }
    expect(await storageSnapshot(registry.local)).toEqual(before);
    const published = await upload(acme, bundle, valid.header);
    expect(published.status).toBe(200);

    const cliBad = await cli("publish", await toolFolder("acme-cli", "1.0.0"), "--sign", keys["acme-a"]!.publicFile, "--token", acme);
    expect(cliBad.status).toBe(EXIT.failed);
    expect(cliBad.err).toMatch(/not an ed25519 private key|not a PEM private key/);
    expect((await cli("publish", await toolFolder("acme-cli", "1.0.0"), "--sign", "missing.pem", "--token", acme)).err).toMatch(
      /no such file or folder: missing\.pem/,
    );
  });

  it("refuses uploads signed with a revoked key", async () => {
    const keyId = signBundle(await bundleOf("acme-revoked"), keys["acme-b"]!.privateKey).keyId;
    const revoked = await cli("key", "revoke", "acme", keyId, "--token", acme);
    expect(revoked.out).toMatch(new RegExp(`^Revoked ${keyId} of acme`));
    const bundle = await bundleOf("acme-revoked");
    const answer = await upload(acme, bundle, signBundle(bundle, keys["acme-b"]!.privateKey).header);
    expect(answer.status).toBe(422);
    expect(answer.body.detail).toMatch(/of acme was revoked at .*; sign with a current key/);
    const listed = (await (await fetch(`${registry.url}/publishers/acme/keys`)).json()) as Record<string, unknown>[];
    expect(listed.find((key) => key.key_id === keyId)?.revoked_at).toEqual(expect.any(String));
    expect((await call("DELETE", `/publishers/acme/keys/${keyId}`, globex)).status).toBe(403);
    expect((await call("DELETE", "/publishers/acme/keys/sha256:nope", acme)).status).toBe(404);
  });
});

describe("editing a signed version", () => {
  it("keeps the signature when the definition is unchanged, needs a new one when it changes", async () => {
    const bundle = await bundleOf("acme-edit");
    expect((await upload(acme, bundle, signBundle(bundle, keys["acme-a"]!.privateKey).header)).status).toBe(200);
    const entry = (await (await fetch(`${registry.url}/tools/acme-edit`)).json()) as Record<string, unknown>;
    expect((await call("PUT", "/tools/acme-edit", acme, { tool_search_description: entry.tool_search_description })).status).toBe(200);
    expect(((await (await fetch(`${registry.url}/tools/acme-edit`)).json()) as Record<string, unknown>).signature).toEqual(entry.signature);

    const refused = await call("PUT", "/tools/acme-edit", acme, { tool_search_description: "a new description" });
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toMatch(
      /is signed .* re-sign the edited entry and send the signature in the x-agent-tools-signature header/,
    );
    const edited = { ...entry, tool_search_description: "a new description" };
    const value = sign(
      null,
      signaturePayload(edited as unknown as Parameters<typeof signaturePayload>[0]),
      keys["acme-a"]!.privateKey,
    ).toString("base64");
    const keyId = (entry.signature as { key_id: string }).key_id;
    const stale = await call(
      "PUT",
      "/tools/acme-edit",
      acme,
      { tool_search_description: "another one" },
      { "x-agent-tools-signature": `${keyId}:${value}` },
    );
    expect(stale.status).toBe(422);
    expect(
      (
        await call(
          "PUT",
          "/tools/acme-edit",
          acme,
          { tool_search_description: "a new description" },
          { "x-agent-tools-signature": `${keyId}:${value}` },
        )
      ).status,
    ).toBe(200);
    const after = (await (await fetch(`${registry.url}/tools/acme-edit`)).json()) as Record<string, unknown>;
    expect(after.tool_search_description).toBe("a new description");
    expect(verifiesAgainst(after, keys["acme-a"]!.publicPem)).toBe(true);
  });
});
