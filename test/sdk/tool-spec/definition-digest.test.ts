import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateKeyPairSync } from "node:crypto";
import {
  DEFINITION_DIGEST_FIELDS,
  DIGESTED_WHEN_PRESENT,
  TOOL_SPEC_SCHEMA,
  definitionDigest,
  publicKeyId,
  signaturePayload,
} from "@agent-tools/sdk/tool-spec";
import { FIXTURE_TOOLS_DIR, fixtureBundle, readFixtureSpec } from "../../support/bundles.js";
import { startTestRegistry, uploadBundle, type TestRegistry } from "../../support/registry.js";

const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");

describe("definitionDigest", () => {
  it("is the sha256 of the canonical JSON: keys sorted recursively, no whitespace, defaults filled", () => {
    const entry = { tool_id: "t", tool_api_spec: { b: 1, a: { d: [2, { z: 1, y: "é" }], c: null } } };
    const expected =
      '{"default_tool_usage_credentials":{},"tool_api_spec":{"a":{"c":null,"d":[2,{"y":"é","z":1}]},"b":1},' +
      '"tool_custom_actions_dsl_map":{},"tool_execution_mode":"","tool_id":"t","tool_man_page_doc":"","tool_metadata":{},' +
      '"tool_parameters":{},"tool_policy_rule_uri":"","tool_runtime_type":"","tool_search_description":"",' +
      '"tool_service_url":"","tool_settings":{},"tool_system_function_rpc_id":"","tool_tags":[],"tool_type":"",' +
      '"tool_validation_mode":"","tool_validation_policy_rule_uri":""}';
    expect(definitionDigest(entry)).toBe(sha256(expected));
    expect(definitionDigest(entry)).toMatch(/^[0-9a-f]{64}$/);
  });

  it("does not depend on key order, at any depth", () => {
    const spec = readFixtureSpec("text-stats");
    const reversed = reverseKeys(spec) as Record<string, unknown>;
    expect(Object.keys(reversed)[0]).not.toBe(Object.keys(spec)[0]);
    expect(definitionDigest(reversed)).toBe(definitionDigest(spec));
  });

  it("keeps array order: reordered tags are another definition", () => {
    expect(definitionDigest({ tool_id: "t", tool_tags: ["a", "b"] })).not.toBe(definitionDigest({ tool_id: "t", tool_tags: ["b", "a"] }));
  });

  it("treats a missing or null field as its default, as the registry does", () => {
    const filled = definitionDigest({ tool_id: "t", tool_tags: [], tool_metadata: {}, tool_type: "" });
    expect(definitionDigest({ tool_id: "t" })).toBe(filled);
    expect(definitionDigest({ tool_id: "t", tool_tags: null, tool_metadata: null })).toBe(filled);
  });

  it("covers every signed field, and nothing the registry owns", () => {
    const base = { ...readFixtureSpec("text-stats"), tool_man_page_doc: "# text-stats" };
    const digest = definitionDigest(base);
    for (const field of DEFINITION_DIGEST_FIELDS) {
      expect(
        definitionDigest({
          ...base,
          [field]:
            field === "tool_tags" ? ["changed"] : typeof base[field as keyof typeof base] === "object" ? { changed: true } : "changed",
        }),
        field,
      ).not.toBe(digest);
    }
    const registryOwned = {
      version: "9.9.9",
      tool_archive_sha256: "0".repeat(64),
      tool_archive_integrity: "sha512-x",
      tool_archive_size: 1,
      published_at: "2026-01-01T00:00:00Z",
      updated_at: "2026-01-02T00:00:00Z",
      owner: "acme",
      status: "yanked",
      status_message: "gone",
      signature: { key_id: "sha256:00", value: "AA==" },
      tool_source_code_link: "http://elsewhere/x",
      unknown_key: 1,
    };
    expect(definitionDigest({ ...base, ...registryOwned })).toBe(digest);
    // A spec.json field added later is a deliberate choice: signing it always changes every digest, so later ones count only when present.
    const specFields = Object.keys(TOOL_SPEC_SCHEMA.properties).filter((field) => field !== "tool_source_code_link");
    const signedWhenPresent = DIGESTED_WHEN_PRESENT.filter((field) => Object.hasOwn(TOOL_SPEC_SCHEMA.properties, field));
    expect([...DEFINITION_DIGEST_FIELDS, ...signedWhenPresent].sort()).toEqual(specFields.sort());
  });

  it("counts tool_capabilities when present, normalised like the registry stores them", () => {
    const spec = readFixtureSpec("text-stats");
    const declared = definitionDigest({ ...spec, tool_capabilities: { network: ["API.example.com:443"] } });
    expect(declared).not.toBe(definitionDigest(spec));
    expect(declared).toBe(definitionDigest({ ...spec, tool_capabilities: { env: [], filesystem: [], network: ["api.example.com:443"] } }));
    expect(definitionDigest({ ...spec, tool_capabilities: null })).toBe(definitionDigest(spec));
    // A malformed manifest is digested as given (the SDK refuses to run it anyway), never a crash.
    expect(definitionDigest({ ...spec, tool_capabilities: { network: [42] } })).toMatch(/^[0-9a-f]{64}$/);
  });

  it("signs a version built for several platforms with a sixth line binding each platform to its archive", () => {
    const entry = {
      ...readFixtureSpec("binary-increment"),
      tool_id: "binary-increment",
      version: "1.0.0",
      tool_archive_sha256: "AA".repeat(32),
    };
    const five = signaturePayload(entry).toString("utf8").split("\n");
    expect(five).toHaveLength(6); // five lines, each ending in \n
    const archives = [
      { platform: { os: "linux", arch: "x64" }, key: "linux-x64", sha256: "aa".repeat(32), integrity: "sha512-x", size: 1 },
      { platform: { os: "linux", arch: "arm64" }, key: "linux-arm64", sha256: "BB".repeat(32), integrity: "sha512-y", size: 2 },
    ];
    const six = signaturePayload({ ...entry, tool_platform_archives: archives })
      .toString("utf8")
      .split("\n");
    expect(six.slice(0, 5)).toEqual(five.slice(0, 5));
    expect(six[5]).toBe(`platforms linux-x64=${"aa".repeat(32)} linux-arm64=${"bb".repeat(32)}`);
    const swapped = [archives[0]!, { ...archives[1]!, sha256: "cc".repeat(32) }];
    expect(signaturePayload({ ...entry, tool_platform_archives: swapped })).not.toEqual(
      signaturePayload({ ...entry, tool_platform_archives: archives }),
    );
  });

  describe("against the registry", () => {
    let registry: TestRegistry;
    beforeAll(async () => {
      registry = await startTestRegistry();
    });
    afterAll(async () => {
      await registry?.close();
    });

    it("a served entry digests like its spec.json with tool.md as the man page", async () => {
      const spec = { ...readFixtureSpec("text-stats"), tool_capabilities: { network: ["Api.Example.com"] } };
      const { bundle } = await fixtureBundle("text-stats", { spec });
      expect((await uploadBundle(registry.url, registry.token, bundle)).status).toBe(200);
      const served = (await (await fetch(`${registry.url}/tools/text-stats`)).json()) as Record<string, unknown>;
      const toolMd = readFileSync(join(FIXTURE_TOOLS_DIR, "text-stats", "tool.md"), "utf8");
      expect(definitionDigest(served)).toBe(definitionDigest({ ...spec, tool_man_page_doc: toolMd }));
    });
  });
});

describe("signaturePayload and publicKeyId", () => {
  it("are the five signed lines, and sha256: over the key's SPKI DER", () => {
    const entry = { tool_id: "text-stats", version: "1.2.3", tool_archive_sha256: "AB".repeat(32), tool_type: "text" };
    expect(signaturePayload(entry).toString("utf8")).toBe(
      `agent-tools-signature-v1\ntext-stats\n1.2.3\n${"ab".repeat(32)}\n${definitionDigest(entry)}\n`,
    );
    const { publicKey } = generateKeyPairSync("ed25519");
    const der = publicKey.export({ type: "spki", format: "der" });
    expect(publicKeyId(publicKey)).toBe(`sha256:${createHash("sha256").update(der).digest("hex")}`);
    expect(publicKeyId(publicKey.export({ type: "spki", format: "pem" }).toString())).toBe(publicKeyId(publicKey));
  });
});

function reverseKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reverseKeys);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value)
      .reverse()
      .map(([key, inner]) => [key, reverseKeys(inner)]),
  );
}
