/**
 * What publisher trust costs an `add`, measured in this run on the same Python tool behind the
 * same entry-rewriting proxy (test/sdk/support/tampering-proxy.ts):
 *   (a) cached re-add of an unsigned version (status check and definition pin only)
 *   (b) cached re-add of the same version signed by its owner (key pinned; the owner's keys are
 *       fetched once per AgentTools, so once per add here)
 *   (c) the pieces: definitionDigest of the entry, and one ed25519 verification
 *
 *   npx tsx bench/trust.bench.ts      (or: npm run bench trust)
 */
import { generateKeyPairSync, sign, verify } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AgentTools } from "../sdk/src/agent-tools.js";
import { definitionDigest } from "../sdk/src/tool-spec/definition-digest.js";
import { publicKeyId, signaturePayload, type SignedVersion } from "../sdk/src/tool-spec/publisher-signature.js";
import { fixtureBundle } from "../test/support/bundles.js";
import { startTestRegistry, uploadBundle } from "../test/support/registry.js";
import { startTamperingProxy } from "../test/sdk/support/tampering-proxy.js";
import { p50p99 } from "./percentiles.js";

const ADDS = 40;
const PIECES = 2_000;

const work = await mkdtemp(join(tmpdir(), "agent-tools-trust-bench-"));
const registry = await startTestRegistry();
const { publicKey, privateKey } = generateKeyPairSync("ed25519");
const keyId = publicKeyId(publicKey);
const pem = publicKey.export({ type: "spki", format: "pem" }).toString();
let signed = false;
const proxy = await startTamperingProxy(
  registry.url,
  (entry) =>
    signed
      ? {
          ...entry,
          owner: "acme",
          signature: { key_id: keyId, value: sign(null, signaturePayload(entry as SignedVersion), privateKey).toString("base64") },
        }
      : entry,
  new Uint8Array(),
  (path) => (path === "/publishers/acme/keys" ? [{ key_id: keyId, public_key: pem, created_at: "2026-01-01T00:00:00Z" }] : undefined),
);
try {
  await uploadBundle(registry.url, registry.token, (await fixtureBundle("text-stats")).bundle);
  const entry = (await (await fetch(`${registry.url}/tools/text-stats`)).json()) as SignedVersion;
  const rows: Array<[string, { p50: number; p99: number }]> = [];
  const unsigned = await timeAdds(join(work, "unsigned"));
  signed = true;
  const signedAdds = await timeAdds(join(work, "signed"));
  rows.push(["(a) cached re-add, unsigned", unsigned], ["(b) cached re-add, signed and verified", signedAdds]);
  rows.push(["(c) definitionDigest(entry)", timePiece(() => definitionDigest(entry))]);
  const payload = signaturePayload(entry);
  const signature = sign(null, payload, privateKey);
  rows.push(["(c) ed25519 verify", timePiece(() => verify(null, payload, publicKey, signature))]);
  console.log("| | p50 ms | p99 ms |\n|---|---|---|");
  for (const [name, { p50, p99 }] of rows) console.log(`| ${name} | ${p50.toFixed(3)} | ${p99.toFixed(3)} |`);
  console.log(`\nsigned / unsigned cached add (p50): ${(signedAdds.p50 / unsigned.p50).toFixed(2)}x`);
} finally {
  await proxy.close();
  await registry.close();
  await rm(work, { recursive: true, force: true });
}

/** Each add by a new AgentTools on one warm cache (as a new agent process would); two untimed warm-ups. */
async function timeAdds(cacheDir: string): Promise<{ p50: number; p99: number }> {
  const times: number[] = [];
  for (let i = 0; i < ADDS + 2; i++) {
    const tools = new AgentTools({ toolsDbUrl: proxy.url, cacheDir, sandbox: "off" });
    const start = performance.now();
    await tools.add("text-stats@1.0.0");
    if (i >= 2) times.push(performance.now() - start);
    await tools.close();
  }
  return p50p99(times);
}

function timePiece(piece: () => unknown): { p50: number; p99: number } {
  const times: number[] = [];
  for (let i = 0; i < PIECES; i++) {
    const start = performance.now();
    piece();
    times.push(performance.now() - start);
  }
  return p50p99(times);
}
