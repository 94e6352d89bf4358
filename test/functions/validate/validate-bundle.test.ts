import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hostPlatform, platformKey } from "@agent-tools/sdk/tool-spec";
import { validateBundle } from "../../../functions/validate/validate-bundle.js";
import { HttpProblem } from "../../../functions/http-problem.js";
import {
  buildBinaryToolArchive,
  buildBundle,
  compileIncrement,
  forOtherCpu,
  OTHER_CPU,
  buildPythonToolZip,
  FIXTURE_TOOLS_DIR,
  fixtureBundle,
  readFixtureSpec,
  tarGzFiles,
  zipFiles,
  type BundleParts,
} from "../../support/bundles.js";

const PROCESSING_FAILED = "Failed to process tool package";
const work = mkdtempSync(join(tmpdir(), "bundle-validate-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

let pythonZip: Uint8Array;
let binaryArchive: Uint8Array;
beforeAll(async () => {
  pythonZip = buildPythonToolZip(join(FIXTURE_TOOLS_DIR, "text-stats"));
  binaryArchive = await buildBinaryToolArchive();
});

const textStatsSpec = () => readFixtureSpec("text-stats");
/** The text-stats bundle with some parts replaced. */
const bundleWith = (parts: Partial<BundleParts>) =>
  buildBundle({ spec: textStatsSpec(), toolZip: pythonZip, toolMd: "# text-stats\n", ...parts });
const specWith = (fields: Record<string, unknown>) => bundleWith({ spec: { ...textStatsSpec(), ...fields } });

function rejection(bundle: Uint8Array, limits?: Parameters<typeof validateBundle>[1]): HttpProblem {
  try {
    validateBundle(bundle, limits);
  } catch (error) {
    expect(error).toBeInstanceOf(HttpProblem);
    return error as HttpProblem;
  }
  throw new Error("the bundle was accepted");
}

function expectRejected(bundle: Uint8Array, status: number, detail: RegExp, limits?: Parameters<typeof validateBundle>[1]): void {
  const error = rejection(bundle, limits);
  expect({ status: error.status, error: error.error }).toEqual({ status, error: PROCESSING_FAILED });
  expect(error.detail).toMatch(detail);
}

describe("the example tools validate", () => {
  it("text-stats: entry with defaults filled, unknown keys dropped, tool.md as man page", async () => {
    const { bundle, toolZip } = await fixtureBundle("text-stats", { spec: { unknown_key: 1 } });
    const validated = validateBundle(bundle);
    expect(validated).toMatchObject({ toolId: "text-stats", version: "1.0.0", archiveFormat: "zip" });
    expect(validated.toolZip).toEqual(toolZip);
    expect(Object.keys(validated.entry)).toHaveLength(19);
    expect(validated.entry).not.toHaveProperty("unknown_key");
    expect(validated.entry).toMatchObject({
      tool_id: "text-stats",
      tool_tags: ["text", "nlp", "statistics"],
      tool_settings: {},
      tool_execution_mode: "",
      tool_source_code_link: "",
      tool_man_page_doc: readFileSync(join(FIXTURE_TOOLS_DIR, "text-stats/tool.md"), "utf8"),
    });
  });

  it("binary-increment: a tar.gz named tool.zip holding one executable", async () => {
    const validated = validateBundle((await fixtureBundle("binary-increment", { version: "2.3.4" })).bundle);
    expect(validated).toMatchObject({ toolId: "binary-increment", version: "2.3.4", archiveFormat: "tar.gz" });
  });

  it("a bundle built with the documented shell steps", () => {
    const folder = join(work, "text-stats");
    cpSync(join(FIXTURE_TOOLS_DIR, "text-stats"), folder, { recursive: true });
    execFileSync("sh", ["-c", "zip -qr tool.zip code && zip -q text-stats-bundle.zip spec.json tool.zip tool.md"], { cwd: folder });
    const validated = validateBundle(readFileSync(join(folder, "text-stats-bundle.zip")));
    expect(validated.toolZip).toEqual(readFileSync(join(folder, "tool.zip")));
  });

  it("no tool_metadata.version means 0.0.0; a v prefix is normalised; spec.json's link and man page are replaced", () => {
    const { tool_metadata: _dropped, ...withoutMetadata } = textStatsSpec();
    expect(validateBundle(bundleWith({ spec: withoutMetadata })).version).toBe("0.0.0");
    expect(validateBundle(specWith({ tool_metadata: { version: "v1.2.3" } })).version).toBe("1.2.3");
    const entry = validateBundle(specWith({ tool_source_code_link: 42, tool_man_page_doc: "old" })).entry;
    expect(entry).toMatchObject({ tool_source_code_link: "", tool_man_page_doc: "# text-stats\n" });
  });

  it("null fields take their defaults", () => {
    expect(validateBundle(specWith({ tool_tags: null, tool_parameters: null })).entry).toMatchObject({
      tool_tags: [],
      tool_parameters: {},
    });
  });
});

describe("bad bundles: each gets its own status and detail", () => {
  it("not a zip", () => {
    expectRejected(new TextEncoder().encode("just text"), 400, /not a zip\. Build it with: zip bundle\.zip spec\.json tool\.zip tool\.md/);
    expectRejected(tarGzFiles({ "spec.json": "{}" }), 400, /a tar\.gz, not a zip \(only the tool\.zip inside may be a tar\.gz\)/);
  });

  it.each(["spec.json", "tool.zip", "tool.md"])("missing %s", (missing) => {
    const files: Record<string, string | Uint8Array> = {
      "spec.json": JSON.stringify(textStatsSpec()),
      "tool.zip": pythonZip,
      "tool.md": "#",
    };
    delete files[missing];
    expectRejected(zipFiles(files), 400, new RegExp(`has no ${missing.replace(".", "\\.")} at its root \\(it holds .+\\)`));
  });

  it("the three files nested under a folder", () => {
    expectRejected(
      bundleWith({ folder: "text-stats" }),
      400,
      /inside the folder "text-stats\/".*cd text-stats && zip \.\.\/bundle\.zip spec\.json tool\.zip tool\.md/,
    );
  });

  it("unexpected extra files, listed", () => {
    expectRejected(
      bundleWith({ extraFiles: { "README.md": "x", "code/": {}, "code/function.py": "x" } }),
      400,
      /unexpected entries: README\.md, code\/, code\/function\.py/,
    );
  });

  it("spec.json not JSON, or not an object", () => {
    expectRejected(
      bundleWith({ spec: "{ tool_id: text-stats }" }),
      400,
      /spec\.json is not valid JSON \(.+\)\. Check it with: python3 -m json\.tool spec\.json/,
    );
    expectRejected(bundleWith({ spec: '["text-stats"]' }), 400, /must be a JSON object .* but it is a list/);
    expectRejected(bundleWith({ spec: "42" }), 400, /but it is the number 42/);
  });

  it("no tool_id", () => {
    const { tool_id: _dropped, ...spec } = textStatsSpec();
    expectRejected(bundleWith({ spec }), 422, /spec\.json has no tool_id\. Add one/);
  });

  it.each([
    ["tools/text-stats", /contains "\/", which would split the URL/],
    ["text..stats", /contains "\.\."/],
    ["text stats", /contains whitespace; use "-" instead of spaces/],
    ["a".repeat(129), /129 characters long, over the limit of 128/],
    ["-text", /starts with "-"/],
    ["text$stats", /contains "\$"/],
    ["", /it is empty/],
  ])("tool_id %j", (toolId, detail) => {
    expectRejected(specWith({ tool_id: toolId }), 422, detail);
  });

  it("tool_id of the wrong type", () => {
    expectRejected(specWith({ tool_id: 7 }), 422, /tool_id must be a string, but it is the number 7/);
  });

  it("wrong field types, every one listed", () => {
    expectRejected(
      specWith({ tool_tags: "text", tool_parameters: [1], tool_type: 3 }),
      422,
      /^spec\.json has 3 problems: tool_type must be a string, but it is the number 3; tool_tags must be a list of strings \(e\.g\. \["text", "nlp"\]\), but it is the string "text"; tool_parameters must be a JSON object/,
    );
    expectRejected(specWith({ tool_tags: ["ok", 2] }), 422, /tool_tags must be a list of strings, but item 1 is the number 2/);
  });

  it("version that is not semver", () => {
    expectRejected(specWith({ tool_metadata: { version: "1.0" } }), 422, /tool_metadata\.version "1\.0" is not semantic versioning/);
    expectRejected(specWith({ tool_metadata: { version: 1 } }), 422, /must be a semver string such as "1\.0\.0", but it is the number 1/);
  });

  it("tool_api_spec.entrypoints.execute.input not a valid JSON Schema", () => {
    const withInput = (input: unknown) => specWith({ tool_api_spec: { entrypoints: { execute: { input } } } });
    expectRejected(
      withInput({ type: "object", properties: { text: { type: "strng" } } }),
      422,
      /execute\.input is not a valid JSON Schema: at \/properties\/text\/type must be equal to one of the allowed values/,
    );
    expectRejected(withInput({ type: "object", required: "text" }), 422, /not a valid JSON Schema: at \/required must be array/);
    expectRejected(withInput("a string"), 422, /execute\.input must be a JSON Schema object, but it is the string "a string"/);
    expectRejected(withInput({ type: "string" }), 422, /must describe an object .* its type is "string"/);
    expectRejected(
      withInput({ type: "object", properties: { a: { $ref: "#/$defs/missing" } } }),
      422,
      /not a usable JSON Schema: .*missing/,
    );
    expectRejected(
      specWith({ tool_api_spec: { entrypoints: ["execute"] } }),
      422,
      /tool_api_spec\.entrypoints must be an object, but it is a list/,
    );
    const draft2020 = { $schema: "https://json-schema.org/draft/2020-12/schema", type: "object" };
    expectRejected(withInput({ ...draft2020, prefixItems: [] }), 422, /at \/prefixItems must NOT have fewer than 1 items/);
    expect(
      validateBundle(withInput({ ...draft2020, properties: { a: { type: "array", prefixItems: [{ type: "string" }] } } })).toolId,
    ).toBe("text-stats");
  });

  it("tool.zip neither zip nor tar.gz", () => {
    expectRejected(
      bundleWith({ toolZip: new TextEncoder().encode("print('hi')") }),
      422,
      /^tool\.zip: The archive is neither a zip nor a tar\.gz/,
    );
  });

  it("tool.zip without a code/ folder", () => {
    expectRejected(
      bundleWith({ toolZip: zipFiles({ "function.py": "x" }) }),
      422,
      /tool\.zip: The archive must unpack to a code\/ folder, but "function\.py" is outside it/,
    );
  });

  it("a Python tool without code/function.py", () => {
    expectRejected(
      bundleWith({ toolZip: zipFiles({ "code/main.py": "x" }) }),
      422,
      /tool\.zip: A Python tool needs code\/function\.py .* holds code\/main\.py/,
    );
  });

  it("a binary tool whose code/ holds no file or several", () => {
    const binarySpec = readFixtureSpec("binary-increment");
    expectRejected(bundleWith({ spec: binarySpec, toolZip: tarGzFiles({ "code/": {} }) }), 422, /code\/ holds no file/);
    const two = tarGzFiles({ "code/increment": { data: "x", mode: 0o755 }, "code/README": "x" });
    expectRejected(
      bundleWith({ spec: binarySpec, toolZip: two }),
      422,
      /exactly one regular file, the executable, but it holds code\/increment, code\/README/,
    );
    expect(validateBundle(bundleWith({ spec: binarySpec, toolZip: binaryArchive })).archiveFormat).toBe("tar.gz");
  });

  it("entries with absolute paths or .. (zip slip)", () => {
    expectRejected(
      bundleWith({ toolZip: zipFiles({ "code/function.py": "x", "/etc/cron.d/evil": "x" }) }),
      422,
      /tool\.zip: The entry "\/etc\/cron\.d\/evil" has an absolute path/,
    );
    expectRejected(
      bundleWith({ toolZip: zipFiles({ "code/function.py": "x", "code/../../evil": "x" }) }),
      422,
      /tool\.zip: The entry "code\/\.\.\/\.\.\/evil" contains a "\.\." segment/,
    );
    expectRejected(
      zipFiles({ "../spec.json": "{}", "tool.zip": pythonZip, "tool.md": "#" }),
      400,
      /^The bundle: The entry "\.\.\/spec\.json" contains a "\.\." segment/,
    );
  });

  it("a tar link pointing outside code/", () => {
    const toolZip = tarGzFiles({
      "code/function.py": "x",
      "code/secrets": { type: "symlink", linkTarget: "../../../../root/.aws/credentials" },
    });
    expectRejected(bundleWith({ toolZip }), 422, /tool\.zip: The symlink "code\/secrets" points to/);
  });

  it("a zip bomb, by size and by ratio (413)", () => {
    const zeros = new Uint8Array(3 * 1024 * 1024);
    expectRejected(
      bundleWith({ toolZip: zipFiles({ "code/function.py": "x", "code/pad": zeros }) }),
      413,
      /tool\.zip: The file "code\/pad" expands from \d+ to 3145728 bytes .*decompression bomb/,
    );
    expectRejected(
      bundleWith({ toolZip: tarGzFiles({ "code/function.py": "x", "code/pad": zeros }) }),
      413,
      /tool\.zip: The tar\.gz expands more than 200 times/,
    );
    const noise = crypto.getRandomValues(new Uint8Array(50_000));
    expectRejected(
      bundleWith({ toolZip: zipFiles({ "code/function.py": noise }) }),
      413,
      /tool\.zip: The file "code\/function\.py" unpacks to 50000 bytes/,
      { toolArchive: { maxEntryBytes: 40_000 } },
    );
    expectRejected(bundleWith({ extraFiles: { pad: zeros } }), 413, /^The bundle: The file "pad" expands/);
  });

  it("a bundle over the size limit (413)", () => {
    expectRejected(bundleWith({}), 413, /The bundle is \d+ bytes; at most 100 are accepted/, { maxBundleBytes: 100 });
  });

  it("an entry too large for one database item (413)", () => {
    expectRejected(bundleWith({ toolMd: "word ".repeat(70_000) }), 413, /make a \d+-byte entry; entries are limited to 307200 bytes/);
  });

  it("tool.md that is not text", () => {
    const bundle = zipFiles({
      "spec.json": JSON.stringify(textStatsSpec()),
      "tool.zip": pythonZip,
      "tool.md": new Uint8Array([0xff, 0xfe, 0x00, 0xc3]),
    });
    expectRejected(bundle, 422, /tool\.md is not UTF-8 text/);
  });
});

describe("every problem of spec.json at once, with a code", () => {
  it("lists them all in one 422 INVALID_SPEC", () => {
    const error = rejection(
      specWith({ tool_id: "no spaces", tool_tags: [1], tool_metadata: { version: "x" }, tool_platforms: [{ os: "linux", arch: "x64" }] }),
    );
    expect({ status: error.status, code: error.code }).toEqual({ status: 422, code: "INVALID_SPEC" });
    expect(error.detail).toMatch(
      /^spec\.json has 4 problems: tool_id "no spaces" is invalid: .*; tool_tags must be a list of strings, .*; tool_metadata\.version "x" is not semantic versioning: .*; tool_platforms applies to binary tools/,
    );
    expect(error.toJSON()).toMatchObject({ error: PROCESSING_FAILED, code: "INVALID_SPEC" });
  });

  it("names the code of a bad bundle and of a bad archive", () => {
    expect(rejection(bundleWith({ extraFiles: { "README.md": "x" } })).code).toBe("INVALID_BUNDLE");
    expect(rejection(bundleWith({ toolZip: zipFiles({ "code/main.py": "x" }) })).code).toBe("INVALID_ARCHIVE");
    expect(rejection(bundleWith({ spec: "{" })).code).toBe("INVALID_SPEC");
  });
});

describe("platforms of a binary tool: one archive each, checked against its executable", () => {
  let hostBuild: Uint8Array;
  let otherBuild: Uint8Array;
  const host = hostPlatform();
  const other = { os: "linux", arch: OTHER_CPU };
  const archiveOf = (binary: Uint8Array) => tarGzFiles({ "code/": { type: "directory" }, "code/increment": { data: binary, mode: 0o755 } });
  const platformBundle = (platforms: unknown[], toolZip: Uint8Array, extraFiles: Record<string, Uint8Array> = {}) =>
    buildBundle({ spec: { ...readFixtureSpec("binary-increment"), tool_platforms: platforms }, toolZip, toolMd: "#", extraFiles });

  beforeAll(async () => {
    const binary = readFileSync(await compileIncrement());
    hostBuild = archiveOf(binary);
    otherBuild = archiveOf(forOtherCpu(binary));
  });

  it("takes tool.zip for the first platform and tool-<key>.zip for each other", () => {
    const validated = validateBundle(platformBundle([host, other], hostBuild, { [`tool-linux-${OTHER_CPU}.zip`]: otherBuild }));
    expect(validated.platforms).toEqual([host, other]);
    expect(validated.archives.map(({ name, platform, bytes }) => ({ name, platform, bytes }))).toEqual([
      { name: "tool.zip", platform: host, bytes: hostBuild },
      { name: `tool-linux-${OTHER_CPU}.zip`, platform: other, bytes: otherBuild },
    ]);
  });

  it("refuses an executable built for another platform than it is declared for (422 INVALID_ARCHIVE)", () => {
    const error = rejection(platformBundle([other, host], hostBuild, { [`tool-${platformKey(host)}.zip`]: otherBuild }));
    expect({ status: error.status, code: error.code }).toEqual({ status: 422, code: "INVALID_ARCHIVE" });
    expect(error.detail).toMatch(
      new RegExp(
        `^tool\\.zip: code/increment is declared for linux-${OTHER_CPU} in ` +
          `tool_platforms, but it is an ELF 64-bit .*, not one for ${OTHER_CPU}`,
      ),
    );
  });

  it("refuses a declared platform without its archive, and an archive nobody declared (400 INVALID_BUNDLE)", () => {
    const missing = rejection(platformBundle([host, other], hostBuild));
    expect({ status: missing.status, code: missing.code }).toEqual({ status: 400, code: "INVALID_BUNDLE" });
    expect(missing.detail).toMatch(new RegExp(`it lacks tool-linux-${OTHER_CPU}\\.zip, which tool_platforms declares`));
    const extra = rejection(
      bundleWith({ spec: readFixtureSpec("binary-increment"), toolZip: hostBuild, extraFiles: { "tool-linux-arm.zip": otherBuild } }),
    );
    expect(extra.detail).toMatch(/it holds tool-linux-arm\.zip, which tool_platforms does not declare/);
  });
});
