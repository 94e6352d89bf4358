/**
 * The CLI as a tool author uses it, against a real registry: `init` scaffolds tools whose own
 * tests pass, `run` executes folders, bundles and registry tools through the SDK, `--json` on
 * every command, `--version`, exit codes in `--help`, errors in CLI terms, `delete` confirmation,
 * `search --type --tag` and the "no tools match" line.
 */
import { execFile } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { runCli } from "../../../sdk/src/cli/run-cli.js";
import { EXIT } from "../../../sdk/src/cli/exit-codes.js";
import type { CliIo } from "../../../sdk/src/cli/cli-io.js";
import { registryForFile } from "../../support/registry-for-file.js";

const run = promisify(execFile);
const suite = registryForFile({}, "agent-tools-cli-authoring-");

/** Runs the CLI in process (optionally as if on a terminal answering `answers`). */
async function cli(args: string[], terminal?: { answers: string[] }, registryUrl = suite.registry.url) {
  let out = "";
  let err = "";
  const questions: string[] = [];
  const io: CliIo = {
    out: (text) => void (out += text),
    err: (text) => void (err += text),
    cwd: suite.folder,
    ...(terminal
      ? {
          interactive: true,
          ask: async (question: string) => {
            questions.push(question);
            return terminal.answers.shift() ?? "";
          },
        }
      : {}),
  };
  const status = await runCli([...args, "--registry", registryUrl], io);
  return { status, out, err, questions };
}
const withToken = (...args: string[]) => [...args, "--token", suite.registry.token];
const cacheDir = () => join(suite.folder, "cache");

describe("init", () => {
  it("scaffolds a Python tool whose unit test passes, that runs through the SDK and publishes without warnings", async () => {
    const created = await cli(["init", "acme.greet"]);
    expect(created).toMatchObject({ status: EXIT.ok, err: "" });
    expect(created.out).toContain("python3 acme.greet/tests/test_function.py");
    const { stderr } = await run("python3", [join(suite.folder, "acme.greet/tests/test_function.py")]);
    expect(stderr).toMatch(/Ran 2 tests[\s\S]*OK/);

    const ran = await cli(["run", "./acme.greet", "--input", '{"name": "Ada"}', "--cache-dir", cacheDir()]);
    expect(ran).toMatchObject({ status: EXIT.ok, err: "" });
    expect(JSON.parse(ran.out)).toEqual({ message: "Hello, Ada!" });
    const configured = await cli([
      "run",
      "acme.greet",
      "--input",
      '{"name": "Ada"}',
      "--parameters",
      '{"greeting": "Hi"}',
      "--cache-dir",
      cacheDir(),
    ]);
    expect(JSON.parse(configured.out)).toEqual({ message: "Hi, Ada!" });

    const published = await cli(withToken("publish", "acme.greet", "--json"));
    expect(published.status).toBe(EXIT.ok);
    expect(JSON.parse(published.out)).toMatchObject({ tool_id: "acme.greet", version: "0.1.0", via: "upload", warnings: [] });
  });

  it("scaffolds a binary tool that is built, passes its test and runs", async () => {
    const created = await cli(["init", "acme.echo", "--runtime", "binary", "--json"]);
    expect(created.status).toBe(EXIT.ok);
    expect(JSON.parse(created.out)).toMatchObject({
      tool_id: "acme.echo",
      runtime: "binary",
      files: ["build.sh", "spec.json", "src/main.c", "tests/test.sh", "tool.md"],
      warnings: [],
    });
    const { stdout } = await run(join(suite.folder, "acme.echo/tests/test.sh"));
    expect(stdout).toMatch(/^ok: code\/acme\.echo wrote/);
    const ran = await cli(["run", "./acme.echo", "--input", '{"value": 41}', "--cache-dir", cacheDir()]);
    expect(JSON.parse(ran.out)).toMatchObject({ received: { tool_id: "acme.echo", mode: "input", input: { value: 41 } } });
    // It passes the checks before publishing: its build matches the platform its spec.json declares.
    const packed = await cli(["pack", "acme.echo", "--json"]);
    expect(packed.status).toBe(EXIT.ok);
    expect(JSON.parse(packed.out)).toMatchObject({ tool_id: "acme.echo", archive_format: "tar.gz", warnings: [] });
  });

  it("refuses bad ids and folders that are in use", async () => {
    for (const id of ["a/b", "a..b", "_x", "search"]) {
      const result = await cli(["init", id]);
      expect(result.status, id).toBe(EXIT.usage);
      expect(result.err).toMatch(/Ids are 1-128 letters|is reserved by the registry's routes/);
    }
    expect((await cli(["init", "acme.greet"])).err).toMatch(/already exists and is not empty; choose another --dir/);
    expect((await cli(["init", "x", "--runtime", "java"])).status).toBe(EXIT.usage);
  });
});

describe("run", () => {
  it("runs a bundle file and a registry tool by id@version", async () => {
    expect((await cli(["pack", "acme.greet", "-o", "greet-bundle.zip"])).status).toBe(EXIT.ok);
    const fromBundle = await cli(["run", "greet-bundle.zip", "--input", '{"name": "Bo"}', "--cache-dir", cacheDir()]);
    expect(JSON.parse(fromBundle.out)).toEqual({ message: "Hello, Bo!" });
    const fromRegistry = await cli(["run", "acme.greet@0.1.0", "--input", '{"name": "Cy"}', "--cache-dir", cacheDir()]);
    expect(fromRegistry).toMatchObject({ status: EXIT.ok, err: "" });
    expect(JSON.parse(fromRegistry.out)).toEqual({ message: "Hello, Cy!" });
  });

  it("says what is wrong with the input, the path or the tool", async () => {
    const notJson = await cli(["run", "./acme.greet", "--input", "{name: Ada}"]);
    expect(notJson.status).toBe(EXIT.usage);
    expect(notJson.err).toMatch(/--input is not valid JSON .*quote it for the shell/);
    expect((await cli(["run", "./acme.greet", "--input", "[1]"])).err).toMatch(/--input must be a JSON object/);
    const missing = await cli(["run", "./no-such-folder"]);
    expect(missing).toMatchObject({ status: EXIT.usage, err: expect.stringMatching(/no such file or folder: \.\/no-such-folder/) });
    // Checked against the tool's schema before it starts, not left to a KeyError inside it.
    for (const args of [["--input", "{}"], []]) {
      const refused = await cli(["run", "./acme.greet", ...args, "--cache-dir", cacheDir()]);
      expect(refused.status).toBe(EXIT.failed);
      expect(refused.err).toBe(
        `agent-tools: The input of tool "acme.greet" does not match its schema: input ` +
          `must have required property 'name'. Pass the input with --input '<json>'; ` +
          `\`agent-tools get <id>\` shows its schema (tool_api_spec.entrypoints.execute.input).\n`,
      );
    }
    const raised = await cli(["run", "./acme.greet", "--input", '{"name": 7}', "--cache-dir", cacheDir()]);
    expect(raised.err).toMatch(/\/name must be string/);
    expect((await cli(["run", "nobody-has-this", "--cache-dir", cacheDir()])).err).toMatch(/no tool "nobody-has-this" in the registry/);
  });
});

describe("every command", () => {
  it("takes --json: results as JSON on stdout, errors as one JSON object on stderr", async () => {
    const list = await cli(["list", "--json"]);
    expect((JSON.parse(list.out) as { tool_id: string }[]).map((entry) => entry.tool_id)).toContain("acme.greet");
    expect(JSON.parse((await cli(["get", "acme.greet", "--json"])).out)).toMatchObject({ tool_id: "acme.greet" });
    expect(JSON.parse((await cli(["versions", "acme.greet", "--json"])).out)).toHaveLength(1);
    expect(JSON.parse((await cli(["search", "greets", "--json"])).out)[0]).toMatchObject({ tool_id: "acme.greet" });
    expect(JSON.parse((await cli(["pack", "acme.greet", "-o", "g.zip", "--json"])).out)).toMatchObject({
      tool_id: "acme.greet",
      archive_format: "zip",
      warnings: [],
    });
    const failed = await cli(["get", "nobody-has-this", "--json"]);
    expect(failed.status).toBe(EXIT.failed);
    expect(JSON.parse(failed.err)).toEqual({
      error: expect.objectContaining({
        exitCode: 1,
        code: "TOOL_NOT_FOUND",
        status: 404,
        message: expect.stringMatching(/no tool "nobody-has-this"/),
      }),
    });
  });

  it("prints the version, and the exit codes in --help", async () => {
    const { version } = JSON.parse(await readFile(join(import.meta.dirname, "../../../sdk/package.json"), "utf8")) as { version: string };
    expect((await cli(["--version"])).out).toBe(`${version}\n`);
    const help = await cli(["--help"]);
    expect(help.out).toMatch(
      /Exit status:\n {2}0 {2}success\n {2}1 {2}refused or failed.*\n {2}2 {2}usage.*\n {2}3 {2}the registry or storage could not be reached/,
    );
    for (const command of ["init", "run", "pack", "publish", "get", "list", "versions", "search", "delete"])
      expect(help.out).toContain(command);
  });

  it("treats a --registry without http:// as a usage error, not an unreachable registry", async () => {
    const result = await cli(["list"], undefined, "localhost:6000");
    expect(result.status).toBe(EXIT.usage);
    expect(result.err).toBe(
      'agent-tools: --registry "localhost:6000" is not an http:// or https:// URL; did you mean --registry http://localhost:6000?\n',
    );
  });
});

describe("search and list", () => {
  it("filter by --type and --tag, and say when nothing matches", async () => {
    const byTag = await cli(["search", "greets", "--tag", "example"]);
    expect(byTag.out).toMatch(/^acme\.greet\t0\.1\.0\t/);
    const none = await cli(["search", "greets", "--type", "no-such-type"]);
    expect(none).toMatchObject({ status: EXIT.ok, out: "", err: 'No tools match "greets" with --type no-such-type.\n' });
    expect((await cli(["search", "zzzqqqxx"])).err).toBe('No tools match "zzzqqqxx".\n');
    expect((await cli(["list", "--tag", "nothing-tagged-so"])).err).toBe("No tools match --tag nothing-tagged-so.\n");
  });
});

describe("delete", () => {
  it("asks on a terminal, deletes only on the tool id, and skips the question with --yes", async () => {
    const declined = await cli(withToken("delete", "acme.echo"), { answers: ["y"] });
    expect(declined.questions[0]).toMatch(/Delete acme\.echo and every version of it from .*\? Type the tool id to confirm: $/);
    expect(declined).toMatchObject({ status: EXIT.failed, err: expect.stringMatching(/not deleted: the answer was not "acme\.echo"/) });

    // acme.echo was never published: confirmed, the registry's 404 comes through.
    const confirmedMissing = await cli(withToken("delete", "acme.echo"), { answers: ["acme.echo"] });
    expect(confirmedMissing.status).toBe(EXIT.failed);

    expect((await cli(withToken("delete", "acme.greet"), { answers: ["acme.greet"] })).out).toBe("Deleted acme.greet\n");
    expect((await cli(withToken("publish", "acme.greet"))).status).toBe(EXIT.ok);
    const skipped = await cli(withToken("delete", "acme.greet", "--yes", "--json"), { answers: [] });
    expect(skipped.questions).toEqual([]);
    expect(JSON.parse(skipped.out)).toEqual({ deleted: "acme.greet" });
  });
});

describe("publish", () => {
  it("warns when spec.json has no version", async () => {
    const folder = join(suite.folder, "unversioned");
    expect((await cli(["init", "unversioned"])).status).toBe(EXIT.ok);
    const spec = JSON.parse(await readFile(join(folder, "spec.json"), "utf8")) as Record<string, unknown>;
    delete spec.tool_metadata;
    await writeFile(join(folder, "spec.json"), JSON.stringify(spec));
    const published = await cli(withToken("publish", "unversioned"));
    expect(published.status).toBe(EXIT.ok);
    expect(published.out).toMatch(/^Published unversioned@0\.0\.0/);
    expect(published.err).toBe(
      "agent-tools: warning: spec.json has no tool_metadata.version, so the tool is published " +
        'as 0.0.0; set tool_metadata.version (e.g. "1.0.0") and raise it with every change.\n',
    );
  });

  it("names a missing folder instead of a missing spec.json", async () => {
    const result = await cli(withToken("publish", "./not-there"));
    expect(result).toMatchObject({ status: EXIT.usage, err: expect.stringMatching(/^agent-tools: no such file or folder: \.\/not-there/) });
  });
});
