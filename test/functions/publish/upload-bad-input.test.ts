// Every bad upload gets a 4xx JSON error with a helpful detail and leaves storage exactly as it was.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  buildBundle,
  buildPythonToolZip,
  FIXTURE_TOOLS_DIR,
  fixtureBundle,
  readFixtureSpec,
  tarGzFiles,
  zipFiles,
} from "../../support/bundles.js";
import { startTestRegistry, uploadBundle, type TestRegistry } from "../../support/registry.js";
import { storageSnapshot } from "../storage/storage-snapshot.js";

let registry: TestRegistry;
// Below the direct-upload cap (functions/http/direct-upload-limit.ts), so MAX_BUNDLE_BYTES is the limit these tests meet.
const MAX_BUNDLE_BYTES = 4 * 1024 * 1024;

const textStatsSpec = readFixtureSpec("text-stats");
const binarySpec = readFixtureSpec("binary-increment");
const toolMd = readFileSync(join(FIXTURE_TOOLS_DIR, "text-stats/tool.md"), "utf8");
const pythonZip = buildPythonToolZip(join(FIXTURE_TOOLS_DIR, "text-stats"));
const functionPy = readFileSync(join(FIXTURE_TOOLS_DIR, "text-stats/code/function.py"));

const bundleWith = (parts: { spec?: Record<string, unknown> | string; toolZip?: Uint8Array }) =>
  buildBundle({ spec: parts.spec ?? textStatsSpec, toolZip: parts.toolZip ?? pythonZip, toolMd });
const specWith = (fields: Record<string, unknown>) => bundleWith({ spec: { ...textStatsSpec, ...fields } });
const pythonToolZip = (extra: Record<string, Uint8Array | string>) =>
  zipFiles({ "code/": { type: "directory" }, "code/function.py": functionPy, ...extra });

/** Bundles the registry must refuse, with a word the detail must mention. */
const BAD_BUNDLES: { name: string; bundle: () => Uint8Array | Promise<Uint8Array>; mentions: RegExp }[] = [
  { name: "not a zip", bundle: () => new TextEncoder().encode("this is not a zip file at all"), mentions: /zip/i },
  { name: "missing spec.json", bundle: () => zipFiles({ "tool.zip": pythonZip, "tool.md": toolMd }), mentions: /spec\.json/ },
  {
    name: "missing tool.zip",
    bundle: () => zipFiles({ "spec.json": JSON.stringify(textStatsSpec), "tool.md": toolMd }),
    mentions: /tool\.zip/,
  },
  {
    name: "missing tool.md",
    bundle: () => zipFiles({ "spec.json": JSON.stringify(textStatsSpec), "tool.zip": pythonZip }),
    mentions: /tool\.md/,
  },
  {
    name: "files nested under a folder",
    bundle: () => buildBundle({ spec: textStatsSpec, toolZip: pythonZip, toolMd, folder: "text-stats" }),
    mentions: /folder|root|nested|text-stats\//i,
  },
  {
    name: "unexpected extra files",
    bundle: () => buildBundle({ spec: textStatsSpec, toolZip: pythonZip, toolMd, extraFiles: { "notes.txt": "hello" } }),
    mentions: /notes\.txt/,
  },
  { name: "spec.json not JSON", bundle: () => bundleWith({ spec: "{ not json" }), mentions: /JSON/i },
  { name: "spec.json not an object", bundle: () => bundleWith({ spec: "[1, 2, 3]" }), mentions: /object/i },
  {
    name: "no tool_id",
    bundle: () => bundleWith({ spec: Object.fromEntries(Object.entries(textStatsSpec).filter(([key]) => key !== "tool_id")) }),
    mentions: /tool_id/,
  },
  { name: "tool_id with a slash", bundle: () => specWith({ tool_id: "a/b" }), mentions: /tool_id/ },
  { name: "tool_id with ..", bundle: () => specWith({ tool_id: "a..b" }), mentions: /tool_id/ },
  { name: "tool_id with spaces", bundle: () => specWith({ tool_id: "text stats" }), mentions: /tool_id/ },
  { name: "tool_id over 128 characters", bundle: () => specWith({ tool_id: "t".repeat(129) }), mentions: /tool_id/ },
  { name: "tool_id reserved by a route", bundle: () => specWith({ tool_id: "search" }), mentions: /reserved/ },
  { name: "tool_tags not a list of strings", bundle: () => specWith({ tool_tags: "text, nlp" }), mentions: /tool_tags/ },
  {
    name: "execute input not a valid JSON Schema",
    bundle: () =>
      specWith({ tool_api_spec: { entrypoints: { execute: { input: { type: "object", properties: { x: { type: "no-such-type" } } } } } } }),
    mentions: /input/,
  },
  {
    name: "tool.zip neither zip nor tar.gz",
    bundle: () => bundleWith({ toolZip: new TextEncoder().encode("plain text") }),
    mentions: /tool\.zip/,
  },
  { name: "tool.zip without code/", bundle: () => bundleWith({ toolZip: zipFiles({ "function.py": functionPy }) }), mentions: /code\// },
  {
    name: "python tool without code/function.py",
    bundle: () => bundleWith({ toolZip: zipFiles({ "code/": { type: "directory" }, "code/main.py": functionPy }) }),
    mentions: /function\.py/,
  },
  {
    name: "binary tool with no file in code/",
    bundle: () => buildBundle({ spec: binarySpec, toolZip: tarGzFiles({ "code/": { type: "directory" } }), toolMd }),
    mentions: /code\//,
  },
  {
    name: "binary tool with several files in code/",
    bundle: () =>
      buildBundle({
        spec: binarySpec,
        toolZip: tarGzFiles({ "code/a": { data: "a", mode: 0o755 }, "code/b": { data: "b", mode: 0o755 } }),
        toolMd,
      }),
    mentions: /code\//,
  },
  { name: "zip slip with ..", bundle: () => bundleWith({ toolZip: pythonToolZip({ "code/../../evil.py": "x" }) }), mentions: /\.\./ },
  {
    name: "absolute path entry",
    bundle: () => bundleWith({ toolZip: pythonToolZip({ "/etc/evil.py": "x" }) }),
    mentions: /absolute|\/etc/i,
  },
  {
    name: "tar link pointing outside code/",
    bundle: () =>
      buildBundle({
        spec: binarySpec,
        toolZip: tarGzFiles({ "code/run": { type: "symlink", linkTarget: "../../../bin/sh" } }),
        toolMd,
      }),
    mentions: /link|outside/i,
  },
  {
    name: "zip bomb (compression ratio)",
    bundle: () => bundleWith({ toolZip: pythonToolZip({ "code/zeros.bin": new Uint8Array(8 * 1024 * 1024) }) }),
    mentions: /ratio|compress|bomb|large|limit/i,
  },
];

beforeAll(async () => {
  registry = await startTestRegistry({ maxBundleBytes: MAX_BUNDLE_BYTES });
  // One good tool, so "unchanged" means more than "still empty".
  const { bundle } = await fixtureBundle("text-stats");
  expect((await uploadBundle(registry.url, registry.token, bundle)).status).toBe(200);
});

afterAll(async () => {
  await registry?.close();
});

async function expectRejectedWithoutTrace(send: () => Promise<Response>, status: number | "4xx", mentions: RegExp) {
  const before = await storageSnapshot(registry.local);
  const response = await send();
  const body = (await response.json()) as { error?: unknown; detail?: unknown };
  if (status === "4xx") expect(response.status, JSON.stringify(body)).toBeGreaterThanOrEqual(400);
  else expect(response.status, JSON.stringify(body)).toBe(status);
  expect(response.status).toBeLessThan(500);
  expect(response.headers.get("content-type")).toMatch(/^application\/json/);
  expect(typeof body.error).toBe("string");
  expect(typeof body.detail).toBe("string");
  expect(body.detail).toMatch(mentions);
  expect(await storageSnapshot(registry.local)).toEqual(before);
  return body;
}

const post = (init: RequestInit & { token?: string | null } = {}) => {
  const headers = new Headers(init.headers);
  if (init.token !== null) headers.set("authorization", `Bearer ${init.token ?? registry.token}`);
  return fetch(`${registry.url}/tools/upload`, { method: "POST", ...init, headers });
};

const formWith = (name: string, value: Blob | string, filename?: string) => {
  const form = new FormData();
  if (typeof value === "string") form.set(name, value);
  else form.set(name, value, filename ?? "bundle.zip");
  return form;
};

describe("POST /tools/upload refuses bad bundles", () => {
  for (const bad of BAD_BUNDLES) {
    it(bad.name, async () => {
      const bundle = await bad.bundle();
      await expectRejectedWithoutTrace(
        () => post({ body: formWith("file", new Blob([bundle as Uint8Array<ArrayBuffer>])) }),
        "4xx",
        bad.mentions,
      );
    });
  }
});

describe("POST /tools/upload refuses bad requests", () => {
  it("a body that is not multipart (415)", async () => {
    await expectRejectedWithoutTrace(
      () => post({ body: JSON.stringify({ file: "x" }), headers: { "content-type": "application/json" } }),
      415,
      /multipart/,
    );
  });

  it('a form without a "file" field (400 Missing file part)', async () => {
    const body = await expectRejectedWithoutTrace(() => post({ body: formWith("bundle", new Blob(["x"])) }), 400, /"file"/);
    expect(body.error).toBe("Missing file part");
  });

  it('a "file" field that is text, not a file', async () => {
    const body = await expectRejectedWithoutTrace(() => post({ body: formWith("file", "just text") }), 400, /file/);
    expect(body.error).toBe("Missing file part");
  });

  it("a file part with an empty filename (400 No selected file)", async () => {
    // What a browser sends for a file input with nothing selected (FormData cannot build it).
    const raw =
      '--b\r\nContent-Disposition: form-data; name="file"; filename=""\r\nContent-Type: application/octet-stream\r\n\r\n\r\n--b--\r\n';
    const body = await expectRejectedWithoutTrace(
      () => post({ body: raw, headers: { "content-type": "multipart/form-data; boundary=b" } }),
      400,
      /filename/,
    );
    expect(body.error).toBe("No selected file");
  });

  it("an empty file", async () => {
    await expectRejectedWithoutTrace(() => post({ body: formWith("file", new Blob([])) }), 400, /empty/);
  });

  it("a malformed multipart body", async () => {
    await expectRejectedWithoutTrace(
      () => post({ body: "--x\r\ngarbage", headers: { "content-type": "multipart/form-data; boundary=x" } }),
      400,
      /multipart/,
    );
  });

  it("a bundle over the size limit, by actual size (413)", async () => {
    const big = new Uint8Array(MAX_BUNDLE_BYTES + 1024).map((_, i) => (i * 7919) % 251);
    // A streamed body has no Content-Length: the limit is enforced while reading.
    const form = formWith("file", new Blob([big]));
    const stream = new Request("http://x/", { method: "POST", body: form });
    await expectRejectedWithoutTrace(
      () =>
        post({
          body: stream.body,
          headers: { "content-type": stream.headers.get("content-type")! },
          duplex: "half",
        } as RequestInit),
      413,
      /limit/,
    );
  });

  it("a bundle over the size limit, by Content-Length (413)", async () => {
    const big = new Uint8Array(MAX_BUNDLE_BYTES + 1024);
    await expectRejectedWithoutTrace(() => post({ body: formWith("file", new Blob([big])) }), 413, /MAX_BUNDLE_BYTES/);
  });

  it(
    "an existing (tool_id, version): 409 with the original error " + "string, VERSION_EXISTS, and advice that names only that version",
    async () => {
      const { bundle } = await fixtureBundle("text-stats");
      const body = await expectRejectedWithoutTrace(
        () => post({ body: formWith("file", new Blob([bundle as Uint8Array<ArrayBuffer>])) }),
        409,
        /already exists .*: bump tool_metadata\.version in spec\.json, or delete just that version first \(agent-tools delete text-stats@1\.0\.0, or DELETE \/tools\/text-stats\/versions\/1\.0\.0\)/s,
      );
      expect(body).toMatchObject({ error: "Failed to process tool package", code: "VERSION_EXISTS" });
      // Never the route that deletes every version of the tool.
      expect(body.detail).not.toMatch(/DELETE \/tools\/text-stats[^/]/);
    },
  );

  it("a missing, malformed or wrong token (401)", async () => {
    const { bundle } = await fixtureBundle("text-stats", { version: "9.0.0" });
    const body = () => formWith("file", new Blob([bundle as Uint8Array<ArrayBuffer>]));
    await expectRejectedWithoutTrace(() => post({ body: body(), token: null }), 401, /token/);
    await expectRejectedWithoutTrace(() => post({ body: body(), headers: { authorization: "Basic abc" }, token: null }), 401, /malformed/);
    await expectRejectedWithoutTrace(() => post({ body: body(), token: "wrong-token" }), 401, /not valid/);
  });
});
