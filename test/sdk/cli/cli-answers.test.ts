/**
 * What the CLI answers, against a real local registry: every subcommand's help lists the global
 * options and an example, `versions` shows each version's status, `list --json` and `search --json`
 * print one shape, and refusals carry a specific code in `--json` and the next step in CLI terms
 * (a delete of a missing tool speaks as `get` does; a version already published says how to go on).
 */
import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COMMAND_EXAMPLES, commandPath } from "../../../sdk/src/cli/command-examples.js";
import { EXIT } from "../../../sdk/src/cli/exit-codes.js";
import { describeFailure } from "../../../sdk/src/cli/report-error.js";
import { uploadBundle } from "../../../sdk/src/publish/upload-bundle.js";
import { RegistryError } from "../../../sdk/src/registry-client/registry-errors.js";
import { createProgram } from "../../../sdk/src/cli/program.js";
import { buildBundle, buildPythonToolZip, FIXTURE_TOOLS_DIR, readFixtureSpec } from "../../support/bundles.js";
import { startTestRegistry, type TestRegistry } from "../../support/registry.js";
import { runCliCaptured } from "../support/captured-cli.js";

let registry: TestRegistry;
let workDir: string;

beforeAll(async () => {
  [registry, workDir] = await Promise.all([startTestRegistry(), mkdtemp(join(tmpdir(), "agent-tools-cli-answers-"))]);
  for (const version of ["1.0.0", "1.1.0", "1.2.0"]) {
    const published = await cli("publish", await textStats(version), "--token", registry.token);
    expect(published.status).toBe(EXIT.ok);
  }
});
afterAll(async () => {
  await registry?.close();
  await rm(workDir, { recursive: true, force: true });
});

const cli = (...args: string[]) => runCliCaptured([...args, "--registry", registry.url], workDir);

/** A copy of the text-stats example with its version set. */
async function textStats(version: string): Promise<string> {
  const dir = join(workDir, `text-stats-${version}`);
  await cp(join(FIXTURE_TOOLS_DIR, "text-stats"), dir, { recursive: true });
  const spec = JSON.parse(await readFile(join(dir, "spec.json"), "utf8")) as { tool_metadata: Record<string, unknown> };
  spec.tool_metadata.version = version;
  await writeFile(join(dir, "spec.json"), JSON.stringify(spec));
  return dir;
}

/** The SDK's own commander (the repository root has another version). */
type Command = ReturnType<typeof createProgram>;

/** Every command that runs something (not the groups such as `token`), by its path. */
function runnableCommands(command: Command): Command[] {
  return command.commands.flatMap((sub) => (sub.commands.length === 0 ? [sub] : runnableCommands(sub)));
}

describe("subcommand help", () => {
  const commands = runnableCommands(createProgram({ out: () => undefined, err: () => undefined, cwd: workDir }));

  it("has examples for every command, and for no command that does not exist", () => {
    const paths = commands.map(commandPath);
    expect(paths.filter((path) => COMMAND_EXAMPLES[path] === undefined)).toEqual([]);
    expect(Object.keys(COMMAND_EXAMPLES).filter((path) => !paths.includes(path))).toEqual([]);
  });

  it("lists the global options and the command's examples", async () => {
    for (const path of ["versions", "token create", "mcp"]) {
      const help = await runCliCaptured([...path.split(" "), "--help"], workDir);
      expect(help.status).toBe(EXIT.ok);
      expect(help.out).toMatch(/Global Options:\n(.*\n)*\s+--registry <url>/);
      expect(help.out).toContain(`Examples:\n${COMMAND_EXAMPLES[path]!.map((example) => `  ${example}`).join("\n")}\n`);
    }
  });
});

describe("the command list", () => {
  const topLevel = createProgram({ out: () => undefined, err: () => undefined, cwd: workDir }).commands.map((command) => command.name());
  const page = (path: string) => readFile(fileURLToPath(new URL(`../../../${path}`, import.meta.url)), "utf8");

  it("is complete in the README and in docs/cli.md's table", async () => {
    const readmeLine = /^- \*\*CLI\*\* \(`agent-tools`\): ([^(]*)/m.exec(await page("README.md"))?.[1] ?? "";
    expect(
      readmeLine
        .replace(/\s+/g, " ")
        .replace(/[ ,]+$/, "")
        .split(", ")
        .sort(),
    ).toEqual([...topLevel].sort());
    // The first cell of each row of the command table: `versions <id>`, `get <id[@version]>`, …
    const cells = (await page("docs/cli.md"))
      .split("\n")
      .filter((line) => line.startsWith("| `"))
      .map((row) => row.split(" | ")[0]!);
    expect(topLevel.filter((name) => !cells.some((cell) => new RegExp(`(^\\| |, )\`${name}[ \`]`).test(cell)))).toEqual([]);
  });
});

describe("versions", () => {
  it("shows each version's status and why, yanked ones too", async () => {
    const token = ["--token", registry.token];
    expect((await cli("yank", "text-stats@1.1.0", "--reason", "counts wrong", ...token)).status).toBe(EXIT.ok);
    expect((await cli("deprecate", "text-stats@1.0.0", "--message", "use 1.2", ...token)).status).toBe(EXIT.ok);
    const text = await cli("versions", "text-stats");
    expect(text.status).toBe(EXIT.ok);
    expect(text.out.split("\n").map((line) => line.split("\t").filter((_, column) => column !== 2))).toEqual([
      ["1.2.0", "active"],
      ["1.1.0", "yanked", "counts wrong"],
      ["1.0.0", "deprecated", "use 1.2"],
      [""],
    ]);
    const json = JSON.parse((await cli("versions", "text-stats", "--json")).out) as Record<string, unknown>[];
    expect(json.map(({ version, status, status_message }) => [version, status, status_message])).toEqual([
      ["1.2.0", "active", undefined],
      ["1.1.0", "yanked", "counts wrong"],
      ["1.0.0", "deprecated", "use 1.2"],
    ]);
    expect((await cli("yank", "text-stats@1.1.0", "--undo", ...token)).status).toBe(EXIT.ok);
    expect((await cli("versions", "text-stats")).out).toMatch(/^1\.1\.0\tactive\t/m);
  });
});

describe("--registry", () => {
  it("names the base URL to use when given one of its routes", async () => {
    for (const route of ["/tools", "/tools/text-stats"]) {
      const result = await runCliCaptured(["list", "--registry", `${registry.url}${route}`], workDir);
      expect(result.status).toBe(EXIT.usage);
      expect(result.err).toBe(
        `agent-tools: --registry "${registry.url}${route}" names the registry's /tools route, not ` +
          `the registry (clients add /tools themselves); did you mean --registry ${registry.url}?\n`,
      );
    }
  });
});

describe("--json answers", () => {
  it("mcp takes --json: its failure is one JSON object on stderr", async () => {
    const result = await cli("mcp", "no-such-tool", "--json");
    expect(result.status).toBe(EXIT.failed);
    expect(JSON.parse(result.err).error).toMatchObject({ code: "TOOL_NOT_FOUND" });
  });

  it("list and search print the same summary of a tool (search adds its score)", async () => {
    const [listed] = JSON.parse((await cli("list", "--json")).out) as Record<string, unknown>[];
    const [found] = JSON.parse((await cli("search", "word", "count", "--json")).out) as Record<string, unknown>[];
    expect(listed).toMatchObject({ tool_id: "text-stats", version: "1.2.0" });
    const { score, ...summary } = found!;
    expect(typeof score).toBe("number");
    expect(summary).toEqual(listed);
  });

  it("a version already published: VERSION_EXISTS and the next step in CLI terms", async () => {
    const again = await cli("publish", await textStats("1.2.0"), "--token", registry.token, "--json");
    expect(again.status).toBe(EXIT.failed);
    const { error: failure } = JSON.parse(again.err) as { error: { code: string; message: string; status: number } };
    expect(failure).toMatchObject({ code: "VERSION_EXISTS", status: 409 });
    expect(failure.message).toContain('raise tool_metadata.version in spec.json (e.g. to "1.2.1")');
    expect(failure.message).toContain("`agent-tools delete text-stats@1.2.0`");
    // Never the route that deletes every version.
    expect(again.err).not.toMatch(/DELETE \/tools\/text-stats\b(?!\/versions)/);
  });

  it("a spec.json the registry refuses (past the CLI's own checks): INVALID_SPEC, and where to find every problem first", async () => {
    const spec = { ...readFixtureSpec("text-stats"), tool_id: "refused-spec", tool_tags: "nlp" };
    const bundle = buildBundle({ spec, toolZip: buildPythonToolZip(join(FIXTURE_TOOLS_DIR, "text-stats")), toolMd: "# refused-spec\n" });
    const error = await uploadBundle(bundle, { registryUrl: registry.url, token: registry.token }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RegistryError);
    expect(error).toMatchObject({ code: "INVALID_SPEC", status: 422 });
    expect(describeFailure(error)).toMatchObject({
      code: "INVALID_SPEC",
      message: expect.stringMatching(/^the registry refused spec\.json: .*tool_tags.*`agent-tools pack <tool-dir>` checks a tool folder/s),
    });
  });

  it("a delete of a missing tool or version says so as get does, not in HTTP terms", async () => {
    const token = ["--token", registry.token, "--yes"];
    const tool = await cli("delete", "no-such-tool", ...token);
    expect(tool.status).toBe(EXIT.failed);
    expect(tool.err).toBe((await cli("get", "no-such-tool")).err);
    expect(tool.err).not.toMatch(/HTTP|\/tools/);
    const version = await cli("delete", "text-stats@9.9.9", ...token, "--json");
    expect(JSON.parse(version.err).error).toMatchObject({
      code: "TOOL_NOT_FOUND",
      message: expect.stringContaining("agent-tools versions text-stats"),
    });
  });
});
