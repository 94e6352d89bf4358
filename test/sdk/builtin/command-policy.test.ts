import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { Bash } from "@agent-tools/sdk";
import { loadBashParser } from "../../../sdk/src/builtin/shell/bash-parser.js";
import type { ProgramSpec } from "../../../sdk/src/builtin/shell/policy/command-spec.js";
import { commandPolicyTable } from "../../../sdk/src/builtin/shell/policy/policy-table.js";
import { indexSpecs, READ_ONLY_SPECS } from "../../../sdk/src/builtin/shell/policy/spec-registry.js";
import { temporaryDirectory } from "./support.js";

/**
 * The read-only policy's own tests: every spec's examples, the loader's duplicate check, the
 * generated docs table, and property tests that dress up every forbidden option (clusters,
 * attached and separate values, `=` forms, long-option abbreviations, brace expansion, quotes)
 * and require that none of them is ever read-only. Commands are only analysed, never run.
 */
const project = temporaryDirectory("builtin-command-policy-");
mkdirSync(join(project.path, "src"));
writeFileSync(join(project.path, "a.txt"), "a\n");
const bash = new Bash({ cwd: project.path });
beforeAll(async () => {
  await loadBashParser();
});
afterAll(() => project.remove());

/** Every spec with the words that reach it (`git log` for the log subcommand). */
function allSpecs(specs: readonly ProgramSpec[] = READ_ONLY_SPECS, prefix: string[] = []): { words: string[]; spec: ProgramSpec }[] {
  return specs.flatMap((spec) => [{ words: [...prefix, spec.name], spec }, ...allSpecs(spec.subcommands ?? [], [...prefix, spec.name])]);
}

const examples = allSpecs().flatMap(({ words, spec }) => [
  ...(spec.examples?.readOnly ?? []).map((command) => [words.join(" "), command, true] as const),
  ...(spec.examples?.notReadOnly ?? []).map((command) => [words.join(" "), command, false] as const),
]);

describe("read-only policy specs", () => {
  it("has examples for the specs that need them", () => {
    expect(examples.length).toBeGreaterThan(100);
  });

  it.each(examples)("%s: %j read-only is %s", async (_, command, readOnly) => {
    expect(await bash.checkReadOnly({ command })).toBe(readOnly);
  });

  it("refuses a policy that names a program or an option twice", () => {
    const spec: ProgramSpec = { name: "x", summary: "x", options: [{ names: ["-a"] }] };
    expect(() => indexSpecs([spec, spec])).toThrow(/program x is specified twice/);
    expect(() => indexSpecs([{ ...spec, forbidden: [{ names: ["-a"], reason: "r" }] }])).toThrow(/lists the option -a twice/);
    expect(() => indexSpecs([{ ...spec, subcommands: [spec, spec] }])).toThrow(/subcommand x twice/);
  });

  it("accepts any argument at all only for programs that print or ignore every word (issue 24)", () => {
    // Each has no option that writes, runs, reads a file or reaches a host: GNU echo/true/false/yes/expr, and test's operators.
    const printsOrIgnores = new Set(["echo", "true", "false", ":", "yes", "expr", "test", "["]);
    const unconstrained = allSpecs()
      .filter(({ spec }) => spec.anyArguments)
      .map(({ words }) => words.join(" "))
      .filter((name) => !printsOrIgnores.has(name));
    expect(unconstrained).toEqual([]);
  });

  it.each(["lsblk --sysroot /mnt", "lscpu -s /mnt", "lspci -q", "lsusb -D /dev/bus/usb/001/002", "nvidia-smi -f /tmp/x", "vmstat -Z"])(
    "a hardware lister refuses %j, an option that reads or writes elsewhere or that it does not list",
    async (command) => {
      expect(await bash.checkReadOnly({ command })).toBe(false);
    },
  );

  it("has a docs table generated from the specs", () => {
    const docs = readFileSync(new URL("../../../docs/command-policy.md", import.meta.url), "utf8");
    expect(docs).toContain(commandPolicyTable());
  });

  it("finds no Object.prototype member as a program, option or subcommand", async () => {
    for (const name of ["toString", "constructor", "__proto__", "hasOwnProperty", "valueOf"]) {
      expect(await bash.checkReadOnly({ command: name })).toBe(false);
      expect(await bash.checkReadOnly({ command: `git ${name}` })).toBe(false);
      expect(await bash.checkReadOnly({ command: `sort --${name} a.txt` })).toBe(false);
    }
  });
});

/** Spellings of a forbidden option that the program would read as that option. */
function variants(option: string, spec: ProgramSpec): string[] {
  const harmlessFlag = (spec.options ?? []).find(
    (candidate) => (candidate.value ?? "none") === "none" && /^-[A-Za-z0-9]$/.test(candidate.names[0]!),
  )?.names[0];
  const accepted = new Set((spec.options ?? []).flatMap((candidate) => candidate.names));
  const forms = [
    option,
    `${option}=x.txt`,
    `'${option}'`,
    `"${option}"`,
    `${option.slice(0, 2)}''${option.slice(2)}`,
    `${option.slice(0, -1)}\\${option.slice(-1)}`,
  ];
  if (spec.style !== "single-dash" && /^-[A-Za-z0-9]$/.test(option)) {
    forms.push(`${option}x.txt`, `${option}/tmp/x`);
    if (harmlessFlag) forms.push(`${harmlessFlag}${option.slice(1)}`, `${harmlessFlag}${option.slice(1)}x.txt`);
  }
  if (option.startsWith("--")) {
    // getopt_long and git read unambiguous prefixes; a prefix that is itself an accepted option is another option.
    for (let length = 3; length < option.length; length += 1)
      if (!accepted.has(option.slice(0, length))) forms.push(option.slice(0, length), `${option.slice(0, length)}=x`);
  }
  forms.push(`-{${option.slice(1)},-x}`, `{${option},a.txt}`);
  return forms;
}

const forbiddenCases = allSpecs().flatMap(({ words, spec }) =>
  (spec.forbidden ?? []).flatMap((forbidden) => forbidden.names.map((name) => ({ words, spec, name }))),
);

describe("forbidden options are never read-only, however they are spelled", () => {
  it("covers every forbidden option of every spec", () => {
    expect(forbiddenCases.length).toBeGreaterThan(150);
  });

  it("property: a dressed-up forbidden option, anywhere among harmless words, is not read-only", async () => {
    const cases = forbiddenCases.flatMap(({ words, spec, name }) => variants(name, spec).map((variant) => ({ words, spec, variant })));
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...cases),
        fc.constantFrom("", "a.txt", "-- a.txt", "src"),
        fc.boolean(),
        async ({ words, spec, variant }, operand, before) => {
          const [program, ...subcommand] = words;
          const rest = before ? [variant, "x", operand] : ["x", variant, operand];
          const command = [program, ...subcommand, ...rest].filter(Boolean).join(" ");
          // After `--`, and after the first operand of a program that does not permute, a word is no option.
          if (!before && (operand.startsWith("--") || spec.permute === false)) return;
          expect(await bash.checkReadOnly({ command }), command).toBe(false);
        },
      ),
      { numRuns: 600, seed: 20261201 },
    );
  });

  it("property: an unknown option, in any cluster, is not read-only", async () => {
    const programs = allSpecs().filter(({ spec }) => !spec.anyArguments && !spec.subcommands && spec.style !== "single-dash");
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...programs), fc.stringMatching(/^--zz[a-z]{1,6}$/), async ({ words }, option) => {
        expect(await bash.checkReadOnly({ command: `${words.join(" ")} ${option} a.txt` })).toBe(false);
      }),
      { numRuns: 200, seed: 1 },
    );
  });
});
