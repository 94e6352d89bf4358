/**
 * `agent-tools pack` and `publish` check a tool before anything is uploaded
 * (docs/authoring.md#checks-before-publishing): every spec.json problem at once by the registry's
 * own rules, Python sources compiled by a real python3 (syntax errors with file and line; no tool
 * code runs, as root or as nobody), and a bundle file given to `publish` checked the same way,
 * so the registry never sees it.
 */
import { execFileSync } from "node:child_process";
import { chmod, cp, mkdir, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { zipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EXIT } from "../../../sdk/src/cli/exit-codes.js";
import { checkPythonSyntax } from "../../../sdk/src/publish/python-syntax.js";
import { packTool } from "../../../sdk/src/publish/pack-tool.js";
import { ToolCheckError } from "../../../sdk/src/publish/tool-check-error.js";
import { FIXTURE_TOOLS_DIR } from "../../support/bundles.js";
import { startTestRegistry, type TestRegistry } from "../../support/registry.js";
import { runCliCaptured } from "../support/captured-cli.js";

let registry: TestRegistry;
let workDir: string;

beforeAll(async () => {
  [registry, workDir] = await Promise.all([startTestRegistry(), mkdtemp(join(tmpdir(), "agent-tools-checks-"))]);
  // nobody must reach the sources of the "as nobody" case.
  await chmod(workDir, 0o755);
});
afterAll(async () => {
  await registry?.close();
  await rm(workDir, { recursive: true, force: true });
});

const cli = (...args: string[]) => runCliCaptured([...args, "--registry", registry.url], workDir);

/** A copy of text-stats with `change` applied to spec.json and `files` added under code/. */
async function toolFolder(
  name: string,
  change: (spec: Record<string, unknown>) => void,
  files: Record<string, string> = {},
): Promise<string> {
  const dir = join(workDir, name);
  await cp(join(FIXTURE_TOOLS_DIR, "text-stats"), dir, { recursive: true });
  const spec = JSON.parse(await readFile(join(dir, "spec.json"), "utf8")) as Record<string, unknown>;
  change(spec);
  await writeFile(join(dir, "spec.json"), JSON.stringify(spec));
  for (const [path, text] of Object.entries(files)) {
    await mkdir(join(dir, "code", path, ".."), { recursive: true });
    await writeFile(join(dir, "code", path), text);
  }
  return dir;
}

/** Three spec problems and two sources Python refuses: five things to fix, all reported by one pack. */
const brokenTool = () =>
  toolFolder(
    "broken",
    (spec) => {
      spec.tool_tags = ["nlp", 7];
      spec.tool_metadata = { ...(spec.tool_metadata as object), version: "1.2" };
      spec.tool_api_spec = { entrypoints: { execute: { input: { type: "array" } } } };
    },
    { "helpers/words.py": "def split(text):\n    return text.split(\n\nVALUE = 1\n", "tabs.py": "if True:\n\tx = 1\n        y = 2\n" },
  );

describe("pack", () => {
  it("reports every problem at once: spec.json by path, Python by file and line", async () => {
    const error = await packTool(await brokenTool()).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ToolCheckError);
    const { problems } = error as ToolCheckError;
    expect(problems.filter((problem) => problem.file === "spec.json").map((problem) => problem.path)).toEqual([
      "tool_tags",
      "tool_metadata.version",
      "tool_api_spec.entrypoints.execute.input",
    ]);
    const python = problems.filter((problem) => problem.file !== "spec.json");
    expect(python.map(({ file, line }) => [file, line]).sort()).toEqual([
      ["code/helpers/words.py", 2],
      ["code/tabs.py", 3],
    ]);
    expect((error as ToolCheckError).message).toMatch(
      /^Tool "text-stats" has 5 problems to fix before publishing:\n {2}spec\.json \(tool_tags\): /,
    );
    expect((error as ToolCheckError).message).toMatch(/\n {2}code\/helpers\/words\.py:2:\d+: '\(' was never closed/);
  });

  it("prints them with exit status 1, and as a list in --json", async () => {
    const dir = await brokenTool();
    const text = await cli("pack", dir, "-o", "broken.zip");
    expect(text.status).toBe(EXIT.failed);
    expect(text.err).toMatch(/has 5 problems to fix before publishing/);
    await expect(stat(join(workDir, "broken.zip"))).rejects.toThrow(/ENOENT/);
    const json = await cli("pack", dir, "--json");
    const { error } = JSON.parse(json.err) as { error: { code: string; problems: { file: string }[] } };
    expect(error.code).toBe("TOOL_CHECK_FAILED");
    expect(error.problems).toHaveLength(5);
  });

  it("compiles sources without running them, as root and as nobody", async () => {
    const marker = join(workDir, "ran");
    const dir = await toolFolder("side-effects", () => undefined, {
      "on_import.py": `open(${JSON.stringify(marker)}, "w").write("ran")\nimport os\nos.system("touch ${marker}")\n`,
    });
    expect((await packTool(dir)).warnings).toEqual([]);
    await expect(stat(marker)).rejects.toThrow(/ENOENT/);

    // The system's python3: a pyenv shim under /root is out of nobody's reach.
    const asNobody = join(workDir, "python-as-nobody");
    await writeFile(asNobody, `#!/bin/sh\nexec setpriv --reuid=65534 --regid=65534 --clear-groups /usr/bin/python3 "$@"\n`, {
      mode: 0o755,
    });
    const sources = [
      { path: "code/ok.py", data: new TextEncoder().encode(`open(${JSON.stringify(marker)}, "w")\n`) },
      { path: "code/bad.py", data: new TextEncoder().encode("x = = 1\n") },
    ];
    expect(execFileSync(asNobody, ["-c", "import os; print(os.getuid())"], { encoding: "utf8" }).trim()).toBe("65534");
    for (const pythonPath of ["python3", asNobody]) {
      const verdict = await checkPythonSyntax(sources, pythonPath);
      expect(verdict).toEqual({ checked: true, errors: [{ path: "code/bad.py", line: 1, column: 5, message: "invalid syntax" }] });
    }
    await expect(stat(marker)).rejects.toThrow(/ENOENT/);
  });

  it("says when Python could not be asked, and packs the rest", async () => {
    const dir = await toolFolder("no-python", () => undefined);
    const packed = await packTool(dir, { pythonPath: join(workDir, "no-such-python") });
    expect(packed.warnings).toEqual([expect.stringMatching(/^Python syntax was not checked: .*no-such-python was not found/)]);
  });
});

describe("publish", () => {
  it("checks a bundle file as pack does, and uploads nothing the registry would refuse", async () => {
    const source = await readFile(join(FIXTURE_TOOLS_DIR, "text-stats", "code", "function.py"));
    const spec = JSON.parse(await readFile(join(FIXTURE_TOOLS_DIR, "text-stats", "spec.json"), "utf8")) as Record<string, unknown>;
    const bundle = zipSync({
      "spec.json": new TextEncoder().encode(JSON.stringify({ ...spec, tool_id: "checked-first", tool_metadata: { version: "one" } })),
      "tool.md": new TextEncoder().encode("# checked-first\n"),
      "tool.zip": zipSync({ "code/function.py": source, "code/extra.py": new TextEncoder().encode("return 1\n") }),
    });
    await writeFile(join(workDir, "checked-first.zip"), bundle);
    const published = await cli("publish", "checked-first.zip", "--token", registry.token, "--json");
    expect(published.status).toBe(EXIT.failed);
    const { error } = JSON.parse(published.err) as { error: { code: string; problems: Record<string, unknown>[] } };
    expect(error.code).toBe("TOOL_CHECK_FAILED");
    expect(error.problems).toEqual([
      expect.objectContaining({ file: "spec.json", path: "tool_metadata.version" }),
      expect.objectContaining({ file: "code/extra.py", line: 1, message: "'return' outside function" }),
    ]);
    expect((await cli("get", "checked-first")).err).toMatch(/no tool "checked-first" in the registry/);
  });
});
