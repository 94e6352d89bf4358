import { execFile } from "node:child_process";
import { chmod, mkdir, readdir, writeFile } from "node:fs/promises";
import { dirname, join, relative, resolve } from "node:path";
import { promisify } from "node:util";
import { Option, type Command } from "commander";
import { hostPlatform, toolIdSpecProblem } from "../../tool-spec/index.js";
import { printJson, withJsonOption, type CliContext } from "../cli-context.js";
import { UsageError } from "../report-error.js";
import { binaryToolFiles } from "../templates/binary-tool.js";
import { pythonToolFiles } from "../templates/python-tool.js";
import { printWarnings } from "./warnings.js";

type Runtime = "python" | "binary";

export function registerInitCommand(program: Command, { io }: CliContext): void {
  withJsonOption(
    program
      .command("init")
      .description("create a new tool folder: spec.json, tool.md, code and a test, ready to run and publish")
      .argument("<id>", "the tool_id, e.g. acme.word-count")
      .addOption(new Option("--runtime <runtime>", "how the tool runs").choices(["python", "binary"]).default("python"))
      .option("--dir <folder>", "where to create it (default: ./<id>)"),
  ).action(async (toolId: string, options: { runtime: Runtime; dir?: string; json?: boolean }) => {
    checkToolId(toolId);
    const folder = resolve(io.cwd, options.dir ?? toolId);
    const existing = await readdir(folder).catch(() => [] as string[]);
    if (existing.length > 0) throw new UsageError(`${folder} already exists and is not empty; choose another --dir.`);
    const files = {
      "spec.json": specJson(toolId, options.runtime),
      "tool.md": manPage(toolId, options.runtime),
      ...(options.runtime === "python" ? pythonToolFiles(toolId) : binaryToolFiles(toolId)),
    };
    for (const [name, content] of Object.entries(files)) {
      const path = join(folder, name);
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, content, { flag: "wx" });
      if (name.endsWith(".sh")) await chmod(path, 0o755);
    }
    const warnings = options.runtime === "binary" ? await buildBinary(folder) : [];
    const shown = relative(io.cwd, folder) || ".";
    const next =
      options.runtime === "python"
        ? [
            `python3 ${shown}/tests/test_function.py`,
            `npx agent-tools run ${shown} --input '{"name": "Ada"}'`,
            `npx agent-tools publish ${shown}`,
          ]
        : [
            `${shown}/build.sh && ${shown}/tests/test.sh`,
            `npx agent-tools run ${shown} --input '{"value": 41}'`,
            `npx agent-tools publish ${shown}`,
          ];
    if (options.json) {
      printJson(io, { tool_id: toolId, runtime: options.runtime, folder, files: Object.keys(files).sort(), next, warnings });
      return;
    }
    io.out(
      `Created ${toolId} (${options.runtime}) in ${folder}:\n${Object.keys(files)
        .sort()
        .map((name) => `  ${name}\n`)
        .join("")}Next:\n${next.map((step) => `  ${step}\n`).join("")}`,
    );
    printWarnings(io, warnings);
  });
}

/** The registry's own id rule (`toolIdSpecProblem`), so a scaffold never starts with an id it refuses. */
function checkToolId(toolId: string): void {
  const problem = toolIdSpecProblem(toolId);
  if (problem !== undefined) throw new UsageError(problem.replace("choose another tool_id in spec.json", "choose another id"));
}

/** Compiles the scaffold with `cc` so the folder runs at once; without a compiler it says how. */
async function buildBinary(folder: string): Promise<string[]> {
  try {
    await promisify(execFile)(join(folder, "build.sh"), [], { cwd: folder });
    return [];
  } catch (error) {
    return [
      `could not build code/ (${(error as { stderr?: string }).stderr?.trim() || (error as Error).message}); ` +
        `install a C compiler and run ${join(folder, "build.sh")}.`,
    ];
  }
}

function specJson(toolId: string, runtime: Runtime): string {
  const input =
    runtime === "python"
      ? { type: "object", properties: { name: { type: "string", description: "Who to greet" } }, required: ["name"] }
      : { type: "object", properties: { value: { type: "number", description: "Any number" } }, required: ["value"] };
  const spec = {
    tool_id: toolId,
    tool_runtime_type: runtime,
    tool_type: "utility",
    tool_search_description:
      runtime === "python"
        ? "Greets someone by name (replace with what the tool does)"
        : "Echoes its request (replace with what the tool does)",
    tool_tags: ["example"],
    tool_metadata: { version: "0.1.0", license: "MIT" },
    tool_parameters: runtime === "python" ? { greeting: "Hello" } : {},
    tool_api_spec: { entrypoints: { execute: { input } } },
    // build.sh compiles for this machine: say so, so agents elsewhere are told, not handed a program they cannot run.
    ...(runtime === "binary" ? { tool_platforms: [hostPlatform()] } : {}),
  };
  return `${JSON.stringify(spec, null, 2)}\n`;
}

function manPage(toolId: string, runtime: Runtime): string {
  const example = runtime === "python" ? `{"name": "Ada"}` : `{"value": 41}`;
  return (
    `# ${toolId}\n\nWhat the tool does, its input and its output: search reads this ` +
    `page.\n\n## Example\n\n    agent-tools run ${toolId} --input '${example}'\n`
  );
}
