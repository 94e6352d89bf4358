/**
 * TrustStore's listing and forgetting, on a real folder: what `agent-tools trust list|forget`
 * shows and resets. Names are stored percent-encoded, so hostile ones stay inside the folder and
 * come back as they were; files that do not parse, and temp files of a write in progress, are
 * not pins.
 */
import { readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { TrustStore } from "../../../sdk/src/trust/trust-store.js";
import { TempDirs } from "../support/temp-dirs.js";

const tempDirs = new TempDirs();
afterAll(() => tempDirs.removeAll());

const REGISTRY = "http://127.0.0.1:6000";
const key = (id: string) => ({ key_id: id, public_key: `-----BEGIN PUBLIC KEY-----\n${id}\n-----END PUBLIC KEY-----\n` });
const definition = (version: string) => ({ digest: `digest-${version}`, version, definition: { name: "t" } });

describe("TrustStore listing and forgetting", () => {
  it("lists nothing, and forgets nothing, in a cache that has no trust folder yet", async () => {
    const store = new TrustStore(await tempDirs.make("trust-store-empty-"), REGISTRY);
    expect(await store.publishers()).toEqual([]);
    expect(await store.definitions()).toEqual([]);
    expect(await store.forgetPublisher("acme")).toBe(false);
    expect(await store.forgetDefinition("acme-search")).toBe(false);
  });

  it("lists publishers with their keys and tools with their approvals, sorted by name", async () => {
    const store = new TrustStore(await tempDirs.make("trust-store-list-"), REGISTRY);
    await store.pinKey("zeta", key("sha256:z"));
    await store.pinKey("acme", key("sha256:a1"));
    await store.pinKey("acme", key("sha256:a2"));
    await store.approveDefinition("text-stats", definition("1.1.0"));
    await store.approveDefinition("acme-search", definition("2.0.0"));

    const publishers = await store.publishers();
    expect(publishers.map((publisher) => [publisher.owner, publisher.keys.map((pinned) => pinned.key_id)])).toEqual([
      ["acme", ["sha256:a1", "sha256:a2"]],
      ["zeta", ["sha256:z"]],
    ]);
    expect(publishers[0]!.keys[0]!.pinned_at).toMatch(/^\d{4}-\d\d-\d\dT/);
    const tools = await store.definitions();
    expect(tools.map(({ toolId, version, digest }) => ({ toolId, version, digest }))).toEqual([
      { toolId: "acme-search", version: "2.0.0", digest: "digest-2.0.0" },
      { toolId: "text-stats", version: "1.1.0", digest: "digest-1.1.0" },
    ]);
    expect(tools[0]!.approved_at).toMatch(/^\d{4}-\d\d-\d\dT/);
  });

  it("forgets one publisher or one tool and nothing else", async () => {
    const store = new TrustStore(await tempDirs.make("trust-store-forget-"), REGISTRY);
    await store.pinKey("acme", key("sha256:a"));
    await store.pinKey("zeta", key("sha256:z"));
    await store.approveDefinition("acme-search", definition("1.0.0"));
    await store.approveDefinition("text-stats", definition("1.0.0"));

    expect(await store.forgetPublisher("acme")).toBe(true);
    expect(await store.forgetDefinition("text-stats")).toBe(true);
    expect(await store.pinnedKeys("acme")).toEqual([]);
    expect((await store.publishers()).map((publisher) => publisher.owner)).toEqual(["zeta"]);
    expect((await store.definitions()).map((tool) => tool.toolId)).toEqual(["acme-search"]);
    expect(await store.forgetPublisher("acme")).toBe(false);
    expect(await store.forgetDefinition("text-stats")).toBe(false);
  });

  it("keeps two registries' pins apart and names the registries a cache has pins for", async () => {
    const cacheDir = await tempDirs.make("trust-store-registries-");
    const local = new TrustStore(cacheDir, REGISTRY);
    const other = new TrustStore(cacheDir, "https://tools.example.com/prod");
    await local.pinKey("acme", key("sha256:local"));
    await other.pinKey("acme", key("sha256:other"));
    expect(await TrustStore.registries(cacheDir)).toEqual([REGISTRY, "https://tools.example.com/prod"]);
    expect(await other.forgetPublisher("acme")).toBe(true);
    expect((await local.publishers())[0]?.keys.map((pinned) => pinned.key_id)).toEqual(["sha256:local"]);
  });

  it("stores hostile names inside its folder and lists them back exactly", async () => {
    const cacheDir = await tempDirs.make("trust-store-hostile-");
    const store = new TrustStore(cacheDir, REGISTRY);
    const owners = ["../../escaped", "a/b\\c", "\u001b[31mred\u0007", "..", "名前 <script>"];
    for (const owner of owners) await store.pinKey(owner, key("sha256:h"));
    await store.approveDefinition("../definitions-escape", definition("1.0.0"));
    expect((await store.publishers()).map((publisher) => publisher.owner)).toEqual([...owners].sort());
    expect((await store.definitions()).map((tool) => tool.toolId)).toEqual(["../definitions-escape"]);
    // Everything is a file of the two folders: nothing was written beside them.
    expect((await readdir(join(cacheDir, "trust"))).length).toBe(1);
    expect(await readdir(join(cacheDir, "trust", encodeURIComponent(REGISTRY)))).toEqual(["definitions", "publishers"]);
    for (const owner of owners) expect(await store.forgetPublisher(owner)).toBe(true);
    expect(await store.publishers()).toEqual([]);
  });

  it("skips files that do not parse and temp files of an unfinished write, but forgets an unreadable pin", async () => {
    const cacheDir = await tempDirs.make("trust-store-corrupt-");
    const store = new TrustStore(cacheDir, REGISTRY);
    await store.pinKey("acme", key("sha256:a"));
    await store.approveDefinition("text-stats", definition("1.0.0"));
    const root = join(cacheDir, "trust", encodeURIComponent(REGISTRY));
    await writeFile(join(root, "publishers", "broken.json"), "{not json");
    await writeFile(join(root, "publishers", "acme.json.partial-1-abcdef12"), JSON.stringify({ keys: [key("sha256:temp")] }));
    await writeFile(join(root, "definitions", "half.json"), JSON.stringify({ digest: 1 }));
    await writeFile(join(root, "definitions", "%E0%A4%A.json"), JSON.stringify(definition("9.9.9"))); // not a name this store wrote

    expect((await store.publishers()).map((publisher) => publisher.owner)).toEqual(["acme"]);
    expect((await store.definitions()).map((tool) => tool.toolId)).toEqual(["text-stats"]);
    expect(await store.forgetPublisher("broken")).toBe(true);
    expect(await store.forgetDefinition("half")).toBe(true);
    expect(await readdir(join(root, "definitions"))).not.toContain("half.json");
  });
});
