/**
 * Binary tools built for several platforms (docs/authoring.md#platforms), end to end on a real
 * registry: `pack` builds one archive per declared platform from `platforms/<key>/code/`, the
 * registry records each and serves it by `?platform=`, the SDK downloads only the one that fits
 * this host and refuses clearly when none does, an undeclared build for another CPU is refused at
 * `add` (root and unprivileged, sandboxed and not) instead of failing in a shell, and deleting
 * versions keeps every archive another version still uses. Builds are this host's gcc output and
 * the same ELF with another CPU's machine field (`forOtherCpu`).
 */
import { chmod, cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createHash, generateKeyPairSync } from "node:crypto";
import { unzipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AgentTools } from "../../sdk/src/agent-tools.js";
import { EXIT } from "../../sdk/src/cli/exit-codes.js";
import { hostPlatform, platformKey, type ToolPlatform } from "@agent-tools/sdk/tool-spec";
import { compileIncrement, FIXTURE_TOOLS_DIR, forOtherCpu, OTHER_CPU, readFixtureSpec } from "../support/bundles.js";
import { startTestRegistry, type TestRegistry } from "../support/registry.js";
import { storageSnapshot } from "../functions/storage/storage-snapshot.js";
import { runCliCaptured } from "./support/captured-cli.js";
import { runToolAsUser, UNPRIVILEGED_UID } from "./support/tool-run-as-user.js";

const host = hostPlatform();
const other: ToolPlatform = { os: "linux", arch: OTHER_CPU as ToolPlatform["arch"] };
let registry: TestRegistry;
let workDir: string;
let hostBinary: Uint8Array;

beforeAll(async () => {
  [registry, workDir] = await Promise.all([startTestRegistry(), mkdtemp(join(tmpdir(), "agent-tools-platforms-"))]);
  await chmod(workDir, 0o755);
  hostBinary = new Uint8Array(await readFile(await compileIncrement()));
});
afterAll(async () => {
  await registry?.close();
  await rm(workDir, { recursive: true, force: true });
});

const cli = (...args: string[]) => runCliCaptured([...args, "--registry", registry.url], workDir);
const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

/** A binary tool folder: each build in `platforms/<key>/code/increment` (or in `code/` when `single`). */
async function toolFolder(
  toolId: string,
  version: string,
  builds: [ToolPlatform, Uint8Array][],
  options: { declare?: ToolPlatform[] | undefined; single?: boolean } = {},
): Promise<string> {
  const dir = join(workDir, `${toolId}-${version}`);
  await mkdir(dir, { recursive: true });
  await cp(join(FIXTURE_TOOLS_DIR, "binary-increment/tool.md"), join(dir, "tool.md"));
  const declared = "declare" in options ? options.declare : builds.map(([platform]) => platform);
  const spec = {
    ...readFixtureSpec("binary-increment"),
    tool_id: toolId,
    tool_metadata: { version },
    ...(declared ? { tool_platforms: declared } : {}),
  };
  await writeFile(join(dir, "spec.json"), JSON.stringify(spec, null, 2));
  for (const [platform, binary] of builds) {
    const code = options.single ? join(dir, "code") : join(dir, "platforms", platformKey(platform), "code");
    await mkdir(code, { recursive: true });
    await writeFile(join(code, "increment"), binary, { mode: 0o755 });
  }
  await chmod(dir, 0o755);
  return dir;
}

async function entryOf(toolId: string, version?: string): Promise<Record<string, unknown>> {
  const path = version === undefined ? `/tools/${toolId}` : `/tools/${toolId}/versions/${version}`;
  return (await (await fetch(`${registry.url}${path}`)).json()) as Record<string, unknown>;
}

describe("a tool built for several platforms", () => {
  it("packs one archive per platform, tool.zip holding the first", async () => {
    const dir = await toolFolder("multi", "1.0.0", [
      [other, forOtherCpu(hostBinary)],
      [host, hostBinary],
    ]);
    const packed = await cli("pack", dir, "-o", "multi-bundle.zip", "--json");
    expect(packed).toMatchObject({ status: EXIT.ok, err: "" });
    expect(JSON.parse(packed.out)).toMatchObject({ tool_id: "multi", version: "1.0.0", archive_format: "tar.gz", warnings: [] });
    const files = unzipSync(new Uint8Array(await readFile(join(workDir, "multi-bundle.zip"))));
    expect(Object.keys(files).sort()).toEqual(["spec.json", `tool-${platformKey(host)}.zip`, "tool.md", "tool.zip"]);
  });

  it("is published with an archive per platform, each served by ?platform=", async () => {
    const published = await cli("publish", "multi-bundle.zip", "--token", registry.token, "--json");
    expect(published).toMatchObject({ status: EXIT.ok, err: "" });
    const entry = await entryOf("multi");
    const archives = entry.tool_platform_archives as { platform: ToolPlatform; key: string; sha256: string; url: string }[];
    expect(entry.tool_platforms).toEqual([other, host]);
    expect(archives.map((archive) => archive.key)).toEqual([platformKey(other), platformKey(host)]);
    expect(archives[0]!.sha256).toBe(entry.tool_archive_sha256);
    for (const archive of archives) {
      expect(archive.url).toBe(`${registry.url}/tools/multi/versions/1.0.0/archive?platform=${archive.key}`);
      const bytes = new Uint8Array(await (await fetch(archive.url)).arrayBuffer());
      expect(sha256(bytes)).toBe(archive.sha256);
    }
    // The catalogue's page shows each platform with its own download.
    const page = await (await fetch(`${registry.url}/t/multi/1.0.0`)).text();
    for (const archive of archives)
      expect(page).toContain(`<a href="/tools/multi/versions/1.0.0/archive?platform=${archive.key}">${archive.key}</a>`);
    // The doctor counts each platform's archive as referenced: none is an orphan to remove.
    const doctor = await cli("registry", "doctor", "--grace", "0", "--json", "--token", registry.token);
    expect(JSON.parse(doctor.out).findings).toEqual([]);
    const unknown = await fetch(`${registry.url}/tools/multi/archive?platform=win32-x64`);
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { detail: string }).detail).toBe(
      `multi@1.0.0 has no archive for platform "win32-x64"; it has ${platformKey(other)}, ${platformKey(host)}.`,
    );
  });

  it("runs through the SDK with the archive of this host's platform, downloading only that one", async () => {
    const cacheDir = join(workDir, "cache-multi");
    const tools = new AgentTools({ toolsDbUrl: registry.url, cacheDir, sandbox: "off" });
    try {
      await tools.add("multi");
      expect(await tools.executeToolById("multi", { value: 41 })).toEqual({ result: 42, status: "success" });
    } finally {
      await tools.close();
    }
    const hostArchive = ((await entryOf("multi")).tool_platform_archives as { key: string; sha256: string }[]).find(
      (archive) => archive.key === platformKey(host),
    )!;
    expect(await readdir(join(cacheDir, "archives"))).toEqual([hostArchive.sha256]);
    const ran = await cli("run", "multi", "--input", '{"value": 1}', "--cache-dir", join(workDir, "cache-run"));
    expect(JSON.parse(ran.out)).toEqual({ result: 2, status: "success" });
  });

  it("runs in place from its folder with the build for this host", async () => {
    const dir = join(workDir, "multi-1.0.0");
    const ran = await cli("run", dir, "--input", '{"value": 9}', "--cache-dir", join(workDir, "cache-local"));
    expect(JSON.parse(ran.out)).toEqual({ result: 10, status: "success" });
  });

  it("built for other platforms only, is refused before any download, naming what it is built for", async () => {
    const dir = await toolFolder("elsewhere", "1.0.0", [[other, forOtherCpu(hostBinary)]]);
    expect((await cli("publish", dir, "--token", registry.token)).status).toBe(EXIT.ok);
    const cacheDir = join(workDir, "cache-elsewhere");
    const tools = new AgentTools({ toolsDbUrl: registry.url, cacheDir });
    const refused = await tools.add("elsewhere").catch((error: unknown) => error);
    await tools.close();
    expect(refused).toMatchObject({
      code: "TOOL_PLATFORM_UNSUPPORTED",
      toolId: "elsewhere",
      host,
      available: [other],
      message:
        `Tool "elsewhere" cannot run on this host (${platformKey(host)}): it is built for ${platformKey(other)} only. ` +
        `Run it on one of those, or ask its publisher for a ${platformKey(host)} build (tool_platforms in its spec.json).`,
    });
    expect(await readdir(join(cacheDir, "archives")).catch(() => [])).toEqual([]);
    const ran = await cli("run", "elsewhere", "--json", "--cache-dir", cacheDir);
    expect(ran.status).toBe(EXIT.failed);
    expect(JSON.parse(ran.err).error).toMatchObject({ code: "TOOL_PLATFORM_UNSUPPORTED" });
  });
});

describe("a signed tool built for several platforms", () => {
  it("signs every platform's archive, and verifies in the SDK", async () => {
    const { privateKey, publicKey } = generateKeyPairSync("ed25519");
    await writeFile(join(workDir, "signer.pem"), privateKey.export({ type: "pkcs8", format: "pem" }));
    await writeFile(join(workDir, "signer.pub.pem"), publicKey.export({ type: "spki", format: "pem" }));
    expect((await cli("key", "add", "admin", "signer.pub.pem", "--token", registry.token)).status).toBe(EXIT.ok);
    const dir = await toolFolder("multi-signed", "1.0.0", [
      [other, forOtherCpu(hostBinary)],
      [host, hostBinary],
    ]);
    const published = await cli("publish", dir, "--sign", "signer.pem", "--token", registry.token);
    expect(published).toMatchObject({ status: EXIT.ok, err: "" });
    const tools = new AgentTools({
      toolsDbUrl: registry.url,
      cacheDir: join(workDir, "cache-signed"),
      sandbox: "off",
      requireSignatures: true,
    });
    try {
      expect(await tools.executeToolById("multi-signed", { value: 1 })).toEqual({ result: 2, status: "success" });
    } finally {
      await tools.close();
    }
  });
});

describe("a build for another CPU that declares no platform", () => {
  it("is refused at add with what it is, as root and as an unprivileged user, sandboxed or not", async () => {
    const dir = await toolFolder("wrong-cpu", "1.0.0", [[other, forOtherCpu(hostBinary)]], { declare: undefined, single: true });
    const cacheDir = join(workDir, "cache-wrong-cpu");
    await mkdir(cacheDir, { mode: 0o777 });
    await chmod(cacheDir, 0o777);
    const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: cacheDir };
    const users = process.getuid?.() === 0 ? [0, UNPRIVILEGED_UID] : [process.getuid?.() ?? 0];
    for (const uid of users)
      for (const sandbox of ["off", "auto"] as const) {
        const outcome = await runToolAsUser(
          uid,
          { options: { cacheDir, sandbox }, path: dir, toolId: "wrong-cpu", input: { value: 1 } },
          env,
        );
        expect(outcome.error, `uid ${uid}, sandbox ${sandbox}`).toEqual({
          code: "TOOL_PLATFORM_UNSUPPORTED",
          message: expect.stringMatching(
            new RegExp(
              `^Tool "wrong-cpu" cannot run on this host \\(${platformKey(host)}\\): its executable ` +
                `code/increment cannot run here: it is an ELF 64-bit .* executable.*, not one for ${process.arch}`,
            ),
          ),
        });
      }
  });

  it("is published with a warning that suggests the platform to declare", async () => {
    const dir = await toolFolder("undeclared", "1.0.0", [[host, hostBinary]], { declare: undefined, single: true });
    const packed = await cli("pack", dir, "-o", "undeclared.zip", "--json");
    const [warning, ...others] = JSON.parse(packed.out).warnings as string[];
    expect(others).toEqual([]);
    expect(warning).toMatch(
      /^code\/increment is an ELF 64-bit .* executable \((glibc|musl)\), but spec\.json declares no tool_platforms: agents on other platforms get a clear refusal only if it does\./,
    );
    expect(warning).toContain(`Add "tool_platforms": [${JSON.stringify(host)}].`);
  });
});

describe("checks before publishing a platform's build", () => {
  it("refuse a build that is not for the platform it sits under, and a declared platform without a build", async () => {
    const swapped = await toolFolder("swapped", "1.0.0", [
      [host, forOtherCpu(hostBinary)],
      [other, hostBinary],
    ]);
    const checked = await cli("pack", swapped, "--json");
    expect(checked.status).toBe(EXIT.failed);
    const { error } = JSON.parse(checked.err);
    expect(error.code).toBe("TOOL_CHECK_FAILED");
    expect(error.problems.map((problem: { file: string }) => problem.file)).toEqual([
      `platforms/${platformKey(host)}/code/increment`,
      `platforms/${platformKey(other)}/code/increment`,
    ]);
    expect(error.problems[0].message).toMatch(new RegExp(`^declared for ${platformKey(host)} in tool_platforms, but it is an ELF`));
    const lacking = await toolFolder("lacking", "1.0.0", [[host, hostBinary]], { declare: [host, other] });
    const refused = await cli("pack", lacking);
    expect(refused.err).toMatch(new RegExp(`must hold one folder per platform .* missing: ${platformKey(other)}`));
  });
});

describe("deleting versions", () => {
  it("keeps every platform's archive another version uses, and removes them with the last", async () => {
    // Builds of their own (a trailing marker keeps an ELF valid), so no other test's tool shares them.
    const own = (binary: Uint8Array) => new Uint8Array([...binary, ...new TextEncoder().encode("shared-tool")]);
    for (const version of ["2.0.0", "2.1.0"]) {
      const dir = await toolFolder("shared", version, [
        [other, forOtherCpu(own(hostBinary))],
        [host, own(hostBinary)],
      ]);
      expect((await cli("publish", dir, "--token", registry.token)).status).toBe(EXIT.ok);
    }
    const archives = ((await entryOf("shared")).tool_platform_archives as { sha256: string; url: string }[]).map(
      (archive) => archive.sha256,
    );
    const stored = async () =>
      (await storageSnapshot(registry.local)).objects.filter((key) => archives.some((sha) => key === `archives/${sha}`));
    expect(await stored()).toHaveLength(2);
    expect((await cli("delete", "shared@2.0.0", "--yes", "--token", registry.token)).status).toBe(EXIT.ok);
    expect(await stored()).toHaveLength(2);
    const hostUrl = `${registry.url}/tools/shared/versions/2.1.0/archive?platform=${platformKey(host)}`;
    expect(sha256(new Uint8Array(await (await fetch(hostUrl)).arrayBuffer()))).toBe(archives[1]);
    expect((await cli("delete", "shared", "--yes", "--token", registry.token)).status).toBe(EXIT.ok);
    expect(await stored()).toEqual([]);
    // The references that kept the second platform's archive alive went with it (the id's owner stays, by design).
    expect(
      (await storageSnapshot(registry.local)).items.filter((item) => item.startsWith("shared ") || item.startsWith("#archive-ref:shared")),
    ).toEqual([]);
  });
});
