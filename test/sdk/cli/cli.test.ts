/**
 * `agent-tools` against a real local registry: pack the example tools, publish them by both
 * upload paths, read them back, and the error output and exit codes of the failure cases.
 */
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { cp, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { createServer, type AddressInfo } from "node:net";
import { join } from "node:path";
import { promisify } from "node:util";
import { gunzipSync, unzipSync, zipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { packTool } from "../../../sdk/src/publish/pack-tool.js";
import { DIRECT_UPLOAD_MAX_BYTES } from "../../../sdk/src/publish/upload-bundle.js";
import { parseTar } from "nanotar";
import { runCliCaptured } from "../support/captured-cli.js";
import { EXIT } from "../../../sdk/src/cli/exit-codes.js";
import { compileIncrement, FIXTURE_TOOLS_DIR } from "../../support/bundles.js";
import { registryForFile } from "../../support/registry-for-file.js";

const suite = registryForFile({}, "agent-tools-cli-");

/** Runs the CLI in process; returns exit status and what it printed. */
const cli = (...args: string[]) => runCliCaptured(args, suite.folder);

const withRegistry = (...args: string[]) => [...args, "--registry", suite.registry.url];
const withToken = (...args: string[]) => [...withRegistry(...args), "--token", suite.registry.token];

/** A copy of an example tool in the work folder, with its version set. */
async function toolFolder(name: "text-stats" | "binary-increment", version: string): Promise<string> {
  const dir = join(suite.folder, `${name}-${version}`);
  await cp(join(FIXTURE_TOOLS_DIR, name), dir, { recursive: true, filter: (source) => !source.includes(`${name}/src`) });
  const spec = JSON.parse(await readFile(join(dir, "spec.json"), "utf8")) as { tool_metadata: Record<string, unknown> };
  spec.tool_metadata.version = version;
  await writeFile(join(dir, "spec.json"), JSON.stringify(spec));
  if (name === "binary-increment") await compileIncrement(join(dir, "code"));
  return dir;
}

describe("pack", () => {
  it("builds a Python tool's bundle with tool.zip as a zip of code/", async () => {
    const { status, out } = await cli("pack", join(FIXTURE_TOOLS_DIR, "text-stats"), "-o", "ts.zip");
    expect(status).toBe(EXIT.ok);
    expect(out).toContain("Packed text-stats@1.0.0 (tool.zip as zip)");
    const bundle = unzipSync(new Uint8Array(await readFile(join(suite.folder, "ts.zip"))));
    expect(Object.keys(bundle).sort()).toEqual(["spec.json", "tool.md", "tool.zip"]);
    expect(Object.keys(unzipSync(bundle["tool.zip"]!))).toEqual(["code/function.py"]);
    expect(new TextDecoder().decode(bundle["spec.json"])).toBe(await readFile(join(FIXTURE_TOOLS_DIR, "text-stats/spec.json"), "utf8"));
  });

  it("packs a binary tool as tar.gz so the executable bit survives", async () => {
    const dir = await toolFolder("binary-increment", "1.0.0");
    const packed = await packTool(dir);
    expect(packed.archiveFormat).toBe("tar.gz");
    const toolZip = unzipSync(packed.bundle)["tool.zip"]!;
    const entries = parseTar(gunzipSync(toolZip));
    const executable = entries.find((entry) => entry.name === "code/increment");
    expect(executable?.attrs?.mode).toMatch(/755$/);
  });

  it("is reproducible: the same folder gives the same bytes", async () => {
    const first = await packTool(join(FIXTURE_TOOLS_DIR, "text-stats"));
    const second = await packTool(join(FIXTURE_TOOLS_DIR, "text-stats"));
    expect(Buffer.from(first.bundle).equals(Buffer.from(second.bundle))).toBe(true);
  });

  it("says which file is missing or wrong", async () => {
    const empty = await mkdtemp(join(suite.folder, "empty-"));
    let result = await cli("pack", empty);
    expect(result.status).toBe(EXIT.failed);
    expect(result.err).toMatch(/spec\.json is missing/);

    await writeFile(join(empty, "spec.json"), "{ not json");
    result = await cli("pack", empty);
    expect(result.err).toMatch(/spec\.json is not valid JSON/);

    await writeFile(join(empty, "spec.json"), JSON.stringify({ tool_id: "x" }));
    result = await cli("pack", empty);
    expect(result.err).toMatch(/tool\.md is missing/);

    await writeFile(join(empty, "tool.md"), "# x");
    result = await cli("pack", empty);
    expect(result.err).toMatch(/tool\.zip is missing.*code\/ folder/);

    await writeFile(join(empty, "tool.zip"), "plain text");
    result = await cli("pack", empty);
    expect(result.err).toMatch(/tool\.zip is neither a zip nor a tar\.gz/);
  });

  it("uses a ready tool.zip when the folder has no code/", async () => {
    const dir = await mkdtemp(join(suite.folder, "ready-"));
    const toolZip = new Uint8Array(zipSync({ "code/function.py": new TextEncoder().encode("class AgentSpaceV1Tool: pass\n") }));
    await Promise.all([
      writeFile(join(dir, "spec.json"), JSON.stringify({ tool_id: "ready-made" })),
      writeFile(join(dir, "tool.md"), "# ready"),
      writeFile(join(dir, "tool.zip"), toolZip),
    ]);
    const packed = await packTool(dir);
    expect(packed).toMatchObject({ toolId: "ready-made", version: "0.0.0", archiveFormat: "zip" });
    expect(Buffer.from(unzipSync(packed.bundle)["tool.zip"]!).equals(Buffer.from(toolZip))).toBe(true);
  });
});

describe("publish", () => {
  it("publishes a tool folder through /tools/upload and the presigned path", async () => {
    let result = await cli(...withToken("publish", await toolFolder("text-stats", "1.0.0"), "--via", "upload"));
    expect(result).toMatchObject({ status: EXIT.ok, err: "" });
    expect(result.out).toMatch(/^Published text-stats@1\.0\.0 via \/tools\/upload \(\d+ bytes\)/);

    result = await cli(...withToken("publish", await toolFolder("text-stats", "1.1.0"), "--via", "presigned"));
    expect(result).toMatchObject({ status: EXIT.ok, err: "" });
    expect(result.out).toMatch(/^Published text-stats@1\.1\.0 via presigned upload/);

    result = await cli(...withRegistry("versions", "text-stats"));
    expect(
      result.out
        .split("\n")
        .filter(Boolean)
        .map((line) => line.split("\t")[0]),
    ).toEqual(["1.1.0", "1.0.0"]);
  });

  it("publishes a ready bundle zip and a binary tool that then runs from its archive", async () => {
    const dir = await toolFolder("binary-increment", "1.0.0");
    expect((await cli("pack", dir, "-o", "inc.zip")).status).toBe(EXIT.ok);
    const result = await cli(...withToken("publish", "inc.zip"));
    expect(result.out).toMatch(/^Published binary-increment@1\.0\.0 via \/tools\/upload/);

    const archive = new Uint8Array(await (await fetch(`${suite.registry.url}/tools/binary-increment/archive`)).arrayBuffer());
    const tar = parseTar(gunzipSync(archive));
    const binaryPath = join(suite.folder, "increment-from-registry");
    await writeFile(binaryPath, tar.find((entry) => entry.name === "code/increment")!.data!, { mode: 0o755 });
    const outFile = join(suite.folder, "increment-out.json");
    await promisify(execFile)(binaryPath, [
      JSON.stringify({ tool_id: "binary-increment", tool_data: { tool_parameters: { step: 1 } }, mode: "input", input: { value: 41 } }),
      outFile,
    ]);
    expect(JSON.parse(await readFile(outFile, "utf8"))).toMatchObject({ result: 42 });
  });

  it("picks the presigned path by itself for a bundle over the direct-upload limit", async () => {
    const dir = await toolFolder("text-stats", "3.0.0");
    await writeFile(join(dir, "code", "weights.bin"), randomBytes(DIRECT_UPLOAD_MAX_BYTES + 64 * 1024));
    const result = await cli(...withToken("publish", dir));
    expect(result.err).toBe("");
    expect(result.out).toMatch(/^Published text-stats@3\.0\.0 via presigned upload \((\d+) bytes\)/);
    const size = Number(/\((\d+) bytes\)/.exec(result.out)![1]);
    expect(size).toBeGreaterThan(DIRECT_UPLOAD_MAX_BYTES);
  });

  it("reports the registry's error and detail with exit status 1", async () => {
    const result = await cli(...withToken("publish", await toolFolder("text-stats", "1.0.0")));
    expect(result.status).toBe(EXIT.failed);
    expect(result.err).toBe(
      "agent-tools: text-stats@1.0.0 is already published, and published versions never " +
        'change: raise tool_metadata.version in spec.json (e.g. to "1.0.1") and publish again, ' +
        "or replace that version: `agent-tools delete text-stats@1.0.0`, then publish.\n",
    );

    const wrongToken = await cli(...withRegistry("publish", await toolFolder("text-stats", "9.0.0"), "--token", "nope"));
    expect(wrongToken.status).toBe(EXIT.failed);
    expect(wrongToken.err).toMatch(
      /Unauthorized \(HTTP 401\): the write token is missing or wrong; pass the registry's write token with --token <token> or AGENT_TOOLS_TOKEN/,
    );
  });

  it("is a usage error without a token or with an unknown --via", async () => {
    const dir = await toolFolder("text-stats", "9.1.0");
    const noToken = await cli(...withRegistry("publish", dir));
    expect(noToken.status).toBe(EXIT.usage);
    expect(noToken.err).toMatch(/needs a write token: pass --token <token> or set AGENT_TOOLS_TOKEN/);

    const badVia = await cli(...withToken("publish", dir, "--via", "carrier-pigeon"));
    expect(badVia.status).toBe(EXIT.usage);
    expect(badVia.err).toMatch(/carrier-pigeon/);
  });

  it("exits 3 when the registry cannot be reached", async () => {
    const closedPort = await new Promise<number>((resolve) => {
      const server = createServer().listen(0, "127.0.0.1", () => {
        const { port } = server.address() as AddressInfo;
        server.close(() => resolve(port));
      });
    });
    const result = await cli(
      "publish",
      join(FIXTURE_TOOLS_DIR, "text-stats"),
      "--registry",
      `http://127.0.0.1:${closedPort}`,
      "--token",
      "t",
    );
    expect(result.status).toBe(EXIT.unreachable);
    expect(result.err).toBe(
      `agent-tools: cannot reach the registry at http://127.0.0.1:${closedPort} (POST /tools/upload: ` +
        `ECONNREFUSED): check that it is running (npm start) and that --registry (or AGENT_TOOLS_REGISTRY) names it.\n`,
    );
  });
});

describe("reading and deleting", () => {
  it("gets the latest entry or one version, lists, and searches", async () => {
    const latest = await cli(...withRegistry("get", "text-stats"));
    expect(latest.status).toBe(EXIT.ok);
    expect(JSON.parse(latest.out)).toMatchObject({ tool_id: "text-stats", version: "3.0.0" });

    const pinned = await cli(...withRegistry("get", "text-stats@1.1.0"));
    expect(JSON.parse(pinned.out)).toMatchObject({ tool_id: "text-stats", version: "1.1.0" });

    const list = await cli(...withRegistry("list"));
    expect(
      list.out
        .split("\n")
        .filter(Boolean)
        .map((line) => line.split("\t").slice(0, 2).join("@"))
        .sort(),
    ).toEqual(["binary-increment@1.0.0", "text-stats@3.0.0"]);
    const listed = JSON.parse((await cli(...withRegistry("list", "--tag", "binary", "--json"))).out) as { tool_id: string }[];
    expect(listed.map((entry) => entry.tool_id)).toEqual(["binary-increment"]);

    const search = await cli(...withRegistry("search", "count", "words"));
    expect(search.status).toBe(EXIT.ok);
    expect(search.out.split("\n")[0]).toMatch(/^text-stats\t3\.0\.0\tCounts words/);
  });

  it("reports unknown tools and versions with the registry's detail", async () => {
    const missing = await cli(...withRegistry("get", "no-such-tool"));
    expect(missing.status).toBe(EXIT.failed);
    expect(missing.err).toBe(
      'agent-tools: no tool "no-such-tool" in the registry; `agent-tools list` ' +
        "shows the published tools, `agent-tools search <words>` finds one.\n",
    );
    const noVersion = await cli(...withRegistry("get", "text-stats@7.7.7"));
    expect(noVersion.err).toBe(
      'agent-tools: tool "text-stats" has no version 7.7.7; `agent-tools versions text-stats` lists its versions.\n',
    );
    const badRef = await cli(...withRegistry("get", "text-stats@"));
    expect(badRef.status).toBe(EXIT.usage);
  });

  it("deletes a tool, after which get fails", async () => {
    const result = await cli(...withToken("delete", "binary-increment"));
    expect(result).toMatchObject({ status: EXIT.ok, out: "Deleted binary-increment\n" });
    expect((await cli(...withRegistry("get", "binary-increment"))).status).toBe(EXIT.failed);
    expect((await cli(...withRegistry("delete", "text-stats"))).status).toBe(EXIT.usage); // no token
  });
});

describe("the executable", () => {
  it("reads AGENT_TOOLS_REGISTRY and AGENT_TOOLS_TOKEN, prints help, and sets the exit status", async () => {
    const main = join(import.meta.dirname, "../../../sdk/src/cli/main.ts");
    const run = (args: string[], env: Record<string, string> = {}) =>
      promisify(execFile)(process.execPath, ["--import", "tsx", main, ...args], { env: { ...process.env, ...env } }).then(
        ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
        (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }),
      );
    const env = { AGENT_TOOLS_REGISTRY: suite.registry.url, AGENT_TOOLS_TOKEN: suite.registry.token };
    const listed = await run(["list"], env);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(/^text-stats\t/m);

    const published = await run(["publish", await toolFolder("text-stats", "4.0.0")], env);
    expect(published).toMatchObject({ code: 0, stderr: "" });
    expect(published.stdout).toMatch(/Published text-stats@4\.0\.0/);

    const help = await run(["--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/Usage: agent-tools/);
    for (const command of ["pack", "publish", "get", "list", "versions", "search", "delete"]) expect(help.stdout).toContain(command);

    const missing = await run(["get", "nothing-here"], env);
    expect(missing.code).toBe(EXIT.failed);
    expect(missing.stderr).toMatch(/no tool "nothing-here" in the registry/);

    expect((await readFile(main, "utf8")).startsWith("#!/usr/bin/env node\n")).toBe(true);
  }, 90_000); // four fresh node processes with tsx: slow on a busy machine
});
