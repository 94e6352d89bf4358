import type { ProgramSpec } from "./command-spec.js";
import { DEVELOPER_TOOLS } from "./specs/developer-tools.js";
import { FILE_EDITORS } from "./specs/file-editors.js";
import { FILE_READERS } from "./specs/file-readers.js";
import { GIT } from "./specs/git.js";
import { SEARCHERS } from "./specs/searchers.js";
import { SYSTEM_INFO } from "./specs/system-info.js";
import { TEXT_PROCESSORS } from "./specs/text-processors.js";

/** Every read-only program spec, in the order the generated docs list them. */
export const READ_ONLY_SPECS: readonly ProgramSpec[] = [
  ...FILE_READERS,
  ...SEARCHERS,
  ...TEXT_PROCESSORS,
  ...SYSTEM_INFO,
  ...DEVELOPER_TOOLS,
  ...GIT,
];

/**
 * The specs by program name, built once with a duplicate check: a name given twice, or an option
 * spelled twice within one spec (accepted or forbidden), is a mistake in the policy and fails at load.
 */
export function indexSpecs(specs: readonly ProgramSpec[]): Map<string, ProgramSpec> {
  const byName = new Map<string, ProgramSpec>();
  for (const spec of specs) {
    checkSpec(spec, spec.name);
    for (const name of [spec.name, ...(spec.aliases ?? [])]) {
      if (byName.has(name)) throw new Error(`read-only policy: program ${name} is specified twice`);
      byName.set(name, spec);
    }
  }
  return byName;
}

function checkSpec(spec: ProgramSpec, id: string): void {
  const seen = new Set<string>();
  for (const name of [
    ...(spec.options ?? []).flatMap((option) => option.names),
    ...(spec.forbidden ?? []).flatMap((option) => option.names),
  ]) {
    if (seen.has(name)) throw new Error(`read-only policy: ${id} lists the option ${name} twice`);
    if (!/^[-+]/.test(name)) throw new Error(`read-only policy: ${id} option ${name} does not start with - or +`);
    seen.add(name);
  }
  const subcommands = new Set<string>();
  for (const subcommand of spec.subcommands ?? []) {
    for (const name of [subcommand.name, ...(subcommand.aliases ?? [])]) {
      if (subcommands.has(name)) throw new Error(`read-only policy: ${id} lists the subcommand ${name} twice`);
      subcommands.add(name);
    }
    checkSpec(subcommand, `${id} ${subcommand.name}`);
  }
}

const SPECS = indexSpecs(READ_ONLY_SPECS);
const EDIT_SPECS = indexSpecs(FILE_EDITORS);

/** The spec for a program name, or undefined (then the command is not read-only). */
export function readOnlySpec(name: string): ProgramSpec | undefined {
  return SPECS.get(name);
}

/** The spec of a file command ACCEPT_EDITS may auto-allow inside the working directories. */
export function editSpec(name: string): ProgramSpec | undefined {
  return EDIT_SPECS.get(name);
}
