import { flag, flags, optional, pathValued, programSpecs, valued, type ProgramSpec } from "../command-spec.js";
import { sedProgramProblem } from "../program-text.js";

/**
 * The file commands ACCEPT_EDITS may auto-allow when every path they touch (operands and the
 * `-t` directory) is inside a working directory. Parsed like the read-only specs: an unlisted
 * option (`cp --target=..` is an abbreviation, `-vt<dir>` a cluster) or form is not auto-allowed.
 */
const copyOrMove = (name: string): ProgramSpec => ({
  name,
  summary: `${name} inside the working directories`,
  options: [
    ...flags(
      "-f -i -n -v -u -b --force --interactive --no-clobber --verbose --update --backup --strip-trailing-slashes -T --no-target-directory",
    ),
    ...(name === "cp"
      ? flags(
          "-r -R -a -p -P -L -H -d -l -s -x --recursive --archive --dereference --no-dereference --parents --one-file-system " +
            "--link --symbolic-link --preserve --no-preserve --sparse --attributes-only --remove-destination --reflink",
        )
      : []),
    pathValued("-t", "--target-directory"),
    valued("-S", "--suffix"),
  ],
});

export const FILE_EDITORS = programSpecs([
  {
    name: "mkdir",
    summary: "mkdir inside the working directories",
    options: [flag("-p", "--parents"), flag("-v", "--verbose"), valued("-m", "--mode")],
  },
  {
    name: "touch",
    summary: "touch inside the working directories",
    options: [
      ...flags("-a -c -m -h --no-create --no-dereference"),
      valued("-d", "--date"),
      valued("-t"),
      pathValued("-r", "--reference"),
      valued("--time"),
    ],
  },
  {
    name: "rm",
    summary: "rm inside the working directories",
    options: flags("-f -r -R -d -i -I -v --force --recursive --dir --verbose --interactive --one-file-system --preserve-root"),
  },
  {
    name: "rmdir",
    summary: "rmdir inside the working directories",
    options: flags("-p -v --parents --verbose --ignore-fail-on-non-empty"),
  },
  copyOrMove("cp"),
  copyOrMove("mv"),
  {
    name: "sed",
    summary: "sed -i inside the working directories (checked script)",
    options: [
      ...flags(
        "-n -E -r -s -u -z --quiet --silent --regexp-extended --separate --unbuffered --null-data --posix --sandbox --follow-symlinks",
      ),
      optional("-i", "--in-place"),
      valued("-e", "--expression"),
      valued("-l", "--line-length"),
    ],
    operands: { leading: ["text"], unlessOptions: ["-e", "--expression"] },
    check: sedProgramProblem,
  },
]);
