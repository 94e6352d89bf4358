import { flags, forbid, optional, programSpecs, valued, type OptionSpec, type ProgramSpec } from "../command-spec.js";
import { awkProgramProblem, queryProgramProblem, sedProgramProblem } from "../program-text.js";

const AWK_OPTIONS: OptionSpec[] = [
  ...flags(
    "-b -c -P -r -S -n -N -s -O -t -M -V --characters-as-bytes --traditional --posix --re-interval " +
      "--sandbox --non-decimal-data --use-lc-numeric --no-optimize --optimize --lint-old --bignum",
  ),
  valued("-F", "--field-separator"),
  valued("-v", "--assign"),
  valued("-e", "--source"),
];
const awk = (name: string): ProgramSpec => ({
  name,
  summary: "runs an awk program over files (checked token by token: no system(), pipes, getline <, file output, ENVIRON, ARGV)",
  options: AWK_OPTIONS,
  forbidden: [
    ...forbid("-f --file -i --include -l --load -E --exec", "loads program text the analysis cannot check"),
    ...forbid("-d --dump-variables -p --profile -o --pretty-print -D --debug", "writes a file"),
    ...forbid("-W", "sets an implementation option (-W exec runs a script)"),
  ],
  operands: { leading: ["text"], unlessOptions: ["-e", "--source"] },
  check: awkProgramProblem,
  examples: {
    readOnly: [`${name} '{print $1}' data.txt`, `${name} -F, -v OFS=, '{print $2}' a.csv`],
    notReadOnly: [`${name} 'BEGIN{system("id")}'`, `${name} '{print > "out"}' a`, `${name} -f prog.awk a`],
  },
});

/** jq programs: no option loads code, reads the environment or writes. */
const JQ_OPTIONS: OptionSpec[] = [
  ...flags(
    "-r -j -a -c -n -s -e -S -C -M -R --tab --raw-output --join-output --ascii-output " +
      "--compact-output --null-input --slurp --exit-status --sort-keys --color-output --monochrome-output " +
      "--raw-input --seq --stream --stream-errors --unbuffered --raw-output0 --args --jsonargs",
  ),
  valued("--indent"),
  { names: ["--arg"], value: "pair" },
  { names: ["--argjson"], value: "pair" },
  { names: ["--slurpfile"], value: "pair", role: "path" },
  { names: ["--rawfile"], value: "pair", role: "path" },
];

export const TEXT_PROCESSORS = programSpecs([
  ...["awk", "gawk", "mawk", "nawk"].map(awk),
  {
    name: "sed",
    summary: "edits a stream (checked: no w, e or r commands, no in-place edits)",
    options: [
      ...flags(
        "-n -E -r -s -u -z --quiet --silent --regexp-extended --separate " +
          "--unbuffered --null-data --posix --debug --sandbox --follow-symlinks",
      ),
      valued("-e", "--expression"),
      valued("-l", "--line-length"),
    ],
    forbidden: [
      ...forbid("-i --in-place", "edits files in place"),
      ...forbid("-f --file", "reads the script from a file the analysis cannot check"),
    ],
    operands: { leading: ["text"], unlessOptions: ["-e", "--expression"] },
    check: sedProgramProblem,
    examples: {
      readOnly: ["sed -n '1,5p' a.txt", "sed -e s/a/b/ a.txt"],
      notReadOnly: ["sed -i s/a/b/ a.txt", "sed -ni p a", "sed 'w out' a", "sed 's/a/b/e' a"],
    },
  },
  {
    name: "jq",
    summary: "queries JSON (checked: no env, $ENV, import, include)",
    options: JQ_OPTIONS,
    forbidden: [
      ...forbid("-f --from-file", "reads the program from a file the analysis cannot check"),
      ...forbid("-L", "adds a module directory for import"),
    ],
    operands: { leading: ["text"] },
    check: queryProgramProblem,
    examples: {
      readOnly: ["jq .name package.json", "jq --arg x 1 '.a = $x' data.json"],
      notReadOnly: ["jq -n env", "jq -n '$ENV'", "jq -f prog.jq a"],
    },
  },
  {
    name: "yq",
    summary: "queries YAML (checked: no env(), strenv(), load())",
    options: [
      ...flags(
        "-r -P -C -M -e -n -N -j -0 --unwrapScalar --prettyPrint --colors --no-colors " +
          "--exit-status --null-input --no-doc --tojson --nul-output -v --verbose",
      ),
      valued("-o", "--output-format"),
      valued("-p", "--input-format"),
      valued("-I", "--indent"),
      optional("--header-preprocess"),
      valued("--expression"),
    ],
    forbidden: [
      ...forbid("-i --inplace", "edits files in place"),
      ...forbid("-s --split-exp", "writes a file per document"),
      ...forbid("--from-file", "reads the expression from a file"),
    ],
    operands: { leading: ["text"] },
    check: queryProgramProblem,
    examples: {
      readOnly: ["yq .a config.yml", "yq e '.a' config.yml"],
      notReadOnly: ["yq -i .a=1 config.yml", "yq 'env(HOME)'", "yq '.url | envsubst' config.yml"],
    },
  },
]);
