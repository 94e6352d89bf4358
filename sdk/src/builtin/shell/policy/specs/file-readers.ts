import { flag, flags, forbid, optional, pathValued, programSpecs, valued, valuedEach, withEffect, type ProgramSpec } from "../command-spec.js";

/** binutils and others read more options from `@file` operands. */
const noResponseFiles = (value: string) => (value.startsWith("@") ? "an @file operand reads more options from a file" : undefined);
const notPlusCommand = (value: string) => (value.startsWith("+") ? "a + operand runs a pager command" : undefined);

const HEAD_TAIL = [valued("-c", "--bytes"), valued("-n", "--lines"), flag("-q", "--quiet", "--silent"), flag("-v", "--verbose"), flag("-z", "--zero-terminated")];
const CHECKSUM = [
  flag("-b", "--binary"), flag("-t", "--text"), flag("-z", "--zero"), flag("--tag"), flag("-c", "--check"), flag("--ignore-missing"),
  flag("--quiet"), flag("--status"), flag("--strict"), flag("-w", "--warn"),
];
const checksum = (name: string): ProgramSpec => ({ name, summary: "prints checksums of files", options: name === "b2sum" ? [...CHECKSUM, valued("-l", "--length")] : CHECKSUM });
const decompressor = (name: string): ProgramSpec => ({ name, summary: "prints decompressed files", options: [flag("-f", "--force"), flag("-q", "--quiet"), flag("-v", "--verbose"), flag("-l", "--list"), flag("-c", "--stdout")] });

/** Programs that read files or directories and print what they hold; none of their listed options writes or runs anything. */
export const FILE_READERS = programSpecs([
  {
    name: "cat",
    injectedOptionsHarmless: true,
    summary: "prints files",
    options: [
      flag("-A", "--show-all"), flag("-b", "--number-nonblank"), flag("-e"), flag("-E", "--show-ends"), flag("-n", "--number"), flag("-s", "--squeeze-blank"),
      flag("-t"), flag("-T", "--show-tabs"), flag("-u"), flag("-v", "--show-nonprinting"),
    ],
    examples: { readOnly: ["cat README.md", "cat -n src/a.ts", "cat -- -file"], notReadOnly: ["cat --output=x a", "cat ~/.ssh/id_rsa"] },
  },
  { name: "head", injectedOptionsHarmless: true, summary: "prints the first lines of files", numericOption: true, options: HEAD_TAIL, examples: { readOnly: ["head -n 5 a.txt", "head -20 a.txt", "head -c100 a"], notReadOnly: ["head -x a"] } },
  {
    name: "tail",
    injectedOptionsHarmless: true,
    summary: "prints the last lines of files",
    numericOption: true,
    options: [...HEAD_TAIL, optional("-f", "--follow"), flag("-F"), flag("--retry"), valued("-s", "--sleep-interval"), valued("--pid"), valued("--max-unchanged-stats")],
    examples: { readOnly: ["tail -n 100 app.log", "tail -f /dev/null"], notReadOnly: ["tail -o x a"] },
  },
  {
    name: "wc",
    injectedOptionsHarmless: true,
    summary: "counts lines, words and bytes",
    options: [flag("-c", "--bytes"), flag("-m", "--chars"), flag("-l", "--lines"), flag("-L", "--max-line-length"), flag("-w", "--words"), valued("--total")],
    forbidden: forbid("--files0-from", "reads the names of the files to count from another file"),
    examples: { readOnly: ["wc -l src/a.ts", "wc -lw a b"], notReadOnly: ["wc --files0-from=list", "wc --files0-from list"] },
  },
  ...["ls", "dir", "vdir"].map(
    (name): ProgramSpec => ({
      name,
      summary: "lists directories",
      injectedOptionsHarmless: true,
      options: [
        flag("-a", "--all"), flag("-A", "--almost-all"), flag("-l"), flag("-h", "--human-readable"), flag("-R", "--recursive"), flag("-t"), flag("-S"), flag("-r", "--reverse"),
        flag("-1"), flag("-d", "--directory"), flag("-F"), flag("-G", "--no-group"), flag("-i", "--inode"), flag("-n", "--numeric-uid-gid"), flag("-o"), flag("-g"),
        flag("-s", "--size"), flag("-X"), flag("-v"), flag("-c"), flag("-u"), flag("-U"), flag("-x"), flag("-C"), flag("-m"), flag("-p"), flag("-L", "--dereference"), flag("-H"),
        flag("-k", "--kibibytes"), flag("-q", "--hide-control-chars"), flag("-b", "--escape"), flag("-N", "--literal"), flag("-Q", "--quote-name"), flag("-Z", "--context"),
        flag("--author"), flag("--full-time"), flag("--group-directories-first"), flag("--si"), flag("--show-control-chars"), flag("--zero"), flag("--dereference-command-line"),
        optional("--color"), optional("--colour"), optional("--hyperlink"), optional("--classify"), valued("--sort"), valued("--time"), valued("--time-style"), valued("--format"),
        valued("--indicator-style"), valued("--hide"), valued("-I", "--ignore"), valued("-w", "--width"), valued("-T", "--tabsize"), valued("--block-size"), valued("--quoting-style"),
      ],
      examples: { readOnly: [`${name} -la src`, `${name} --color=never`], notReadOnly: [`${name} --output=x`] },
    }),
  ),
  {
    name: "stat",
    injectedOptionsHarmless: true,
    summary: "prints file metadata",
    options: [flag("-L", "--dereference"), flag("-f", "--file-system"), valued("-c", "--format"), valued("--printf"), flag("-t", "--terse"), valued("--cached")],
    examples: { readOnly: ["stat package.json", "stat -c %s a"], notReadOnly: ["stat -x a"] },
  },
  {
    name: "file",
    summary: "guesses file types",
    options: [
      ...flags("-b -i -L -h -z -Z -k -s -r -N -0 -E --brief --mime --mime-type --mime-encoding --dereference --no-dereference --keep-going --special-files --raw --no-pad --print0 --uncompress --uncompress-noreport --extension --apple"),
      valued("-F", "--separator"), valued("-P", "--parameter"), valued("-e", "--exclude"), pathValued("-m", "--magic-file"),
    ],
    forbidden: [...forbid("-C --compile", "writes a compiled magic file"), ...forbid("-f --files-from", "reads the names of the files to examine from another file")],
    examples: { readOnly: ["file README.md", "file -b --mime-type a.png"], notReadOnly: ["file -C -m x", "file -f list"] },
  },
  {
    name: "du",
    injectedOptionsHarmless: true,
    summary: "prints disk usage",
    options: [
      ...flags("-s -h -a -c -k -m -b -x -L -P -H -S -l -0 --summarize --human-readable --all --total --apparent-size --si --one-file-system --dereference --no-dereference --separate-dirs --count-links --null --inodes"),
      valued("-d", "--max-depth"), valued("--block-size"), valued("-B"), optional("--time"), valued("--time-style"), valued("--exclude"), pathValued("-X", "--exclude-from"), valued("-t", "--threshold"),
    ],
    forbidden: forbid("--files0-from", "reads the names of the files to measure from another file"),
    examples: { readOnly: ["du -sh src", "du -d 1 ."], notReadOnly: ["du --files0-from=x"] },
  },
  {
    name: "df",
    summary: "prints free disk space",
    options: [
      ...flags("-h -H -T -i -a -l -P -k -m --total --si --human-readable --print-type --inodes --local --portability --sync --no-sync --all"),
      optional("--output"), valued("-t", "--type"), valued("-x", "--exclude-type"), valued("-B", "--block-size"),
    ],
    examples: { readOnly: ["df -h", "df --output=source ."], notReadOnly: ["df -Z"] },
  },
  {
    name: "tree",
    summary: "lists a directory tree",
    options: [
      ...flags("-a -d -f -i -l -x -p -s -h -u -g -D -F -q -N -Q -r -t -c -v -U -C -n -A -S -J -X --du --si --prune --noreport --dirsfirst --gitignore --matchdirs --ignore-case --inodes --device"),
      valued("-L"), valued("-P"), valued("-I"), valued("--filelimit"), valued("--charset"), valued("--sort"), valued("--timefmt"),
    ],
    forbidden: [...forbid("-o", "writes the listing to a file"), ...forbid("-R", "writes a listing file into every directory"), ...forbid("-H", "writes HTML with links")],
    examples: { readOnly: ["tree -L 2 src", "tree -a -I node_modules"], notReadOnly: ["tree -o out.txt", "tree -Ro x"] },
  },
  {
    name: "realpath",
    injectedOptionsHarmless: true,
    summary: "prints resolved paths",
    options: [...flags("-e -m -L -P -q -s -z --canonicalize-existing --canonicalize-missing --logical --physical --quiet --strip --no-symlinks --zero"), valued("--relative-to"), valued("--relative-base")],
  },
  { name: "readlink", injectedOptionsHarmless: true, summary: "prints symbolic link targets", options: flags("-f -e -m -n -q -s -v -z --canonicalize --canonicalize-existing --canonicalize-missing --no-newline --quiet --silent --verbose --zero") },
  { name: "basename", injectedOptionsHarmless: true, summary: "strips directories from names", operands: { role: "text" }, options: [flag("-a", "--multiple"), valued("-s", "--suffix"), flag("-z", "--zero")] },
  { name: "dirname", injectedOptionsHarmless: true, summary: "strips the last component from names", operands: { role: "text" }, options: [flag("-z", "--zero")] },
  { name: "pwd", summary: "prints the working directory", options: flags("-L -P"), operands: { max: 0 } },
  {
    name: "cmp",
    summary: "compares two files byte by byte",
    options: [flag("-b", "--print-bytes"), flag("-l", "--verbose"), flag("-s", "--quiet", "--silent"), valued("-i", "--ignore-initial"), valued("-n", "--bytes")],
  },
  { name: "comm", summary: "compares two sorted files", options: [...flags("-1 -2 -3 --check-order --nocheck-order --total -z --zero-terminated"), valued("--output-delimiter")] },
  {
    name: "diff",
    summary: "compares files line by line",
    options: [
      ...flags("-u -c -q -s -y -w -b -B -i -E -Z -a -N -t -T -p -l -d -e -f -n --normal --brief --report-identical-files --side-by-side --new-file --unidirectional-new-file --ignore-case --ignore-all-space --ignore-space-change --ignore-blank-lines --ignore-tab-expansion --ignore-trailing-space --strip-trailing-cr --text --minimal --speed-large-files --suppress-common-lines --left-column --expand-tabs --initial-tab --show-c-function --no-dereference --ignore-file-name-case --no-ignore-file-name-case --paginate --suppress-blank-empty --ed --rcs --forward-ed"),
      withEffect(flag("-r", "--recursive"), "recursive"),
      valued("-U"), valued("-C"), optional("--unified"), optional("--context"), valued("-W", "--width"), valued("--tabsize"), valued("-x", "--exclude"), pathValued("-X", "--exclude-from"),
      valued("-S", "--starting-file"), valued("-I", "--ignore-matching-lines"), valued("-F", "--show-function-line"), valued("-D", "--ifdef"), valued("--label"), optional("--color"),
      valued("--horizon-lines"), valued("--line-format"), valued("--old-line-format"), valued("--new-line-format"), valued("--unchanged-line-format"), valued("--old-group-format"),
      valued("--new-group-format"), valued("--changed-group-format"), valued("--unchanged-group-format"), valued("--palette"), pathValued("--from-file"), pathValued("--to-file"),
    ],
    examples: { readOnly: ["diff -u a.txt b.txt", "diff -r src lib"], notReadOnly: ["diff --output=x a b"] },
  },
  { name: "nl", summary: "numbers lines", options: [...valuedEach("-b -d -f -h -i -l -n -s -v -w"), flag("-p")] },
  { name: "tac", summary: "prints files last line first", options: [flag("-b", "--before"), flag("-r", "--regex"), valued("-s", "--separator")] },
  { name: "rev", summary: "reverses lines", options: [] },
  {
    name: "strings",
    summary: "prints printable strings in files",
    options: [...flags("-a -d -f -w --all --data --print-file-name --include-all-whitespace"), valued("-n", "--bytes"), valued("-t", "--radix"), valued("-e", "--encoding"), valued("-s", "--output-separator")],
    operands: { check: noResponseFiles },
    examples: { readOnly: ["strings -n 8 a.bin"], notReadOnly: ["strings @opts"] },
  },
  {
    name: "od",
    summary: "dumps files in octal and other formats",
    options: [
      ...flags("-a -b -c -d -f -i -l -o -s -x -v --output-duplicates --traditional"), valued("-A", "--address-radix"), valued("-j", "--skip-bytes"), valued("-N", "--read-bytes"),
      valued("-S"), optional("--strings"), valued("-t", "--format"), optional("-w", "--width"), valued("--endian"),
    ],
  },
  { name: "hexdump", summary: "dumps files in hexadecimal", options: [...flags("-b -c -C -d -o -x -v"), valued("-e"), pathValued("-f"), valued("-n"), valued("-s")] },
  {
    name: "xxd",
    summary: "dumps a file in hexadecimal",
    style: "single-dash",
    options: [
      ...flags("-a -autoskip -b -bits -C -capitalize -E -EBCDIC -e -i -include -p -ps -postscript -plain -u -uppercase -d -R"),
      ...valuedEach("-c -cols -g -groupsize -l -len -n -name -o -s -seek"),
    ],
    forbidden: forbid("-r -revert", "writes binary data back to a file"),
    operands: { max: 1 },
    examples: { readOnly: ["xxd a.bin", "xxd -l 64 a.bin"], notReadOnly: ["xxd a.bin out.txt", "xxd -r a.hex b"] },
  },
  ...["sha1sum", "sha224sum", "sha256sum", "sha384sum", "sha512sum", "md5sum", "b2sum"].map(checksum),
  { name: "cksum", summary: "prints checksums", options: [...flags("--untagged --tag --base64 --raw -c --check --strict --warn --quiet --status --zero -z"), valued("-a", "--algorithm"), valued("-l", "--length")] },
  { name: "sum", summary: "prints checksums", options: flags("-r -s --sysv") },
  {
    name: "less",
    summary: "pages through files",
    options: [
      ...flags("-N -S -R -r -F -X -i -I -n -s -M -m -e -E -f -g -G -w -J -K -q -Q --LINE-NUMBERS --chop-long-lines --RAW-CONTROL-CHARS --quit-if-one-screen --no-init --ignore-case --IGNORE-CASE --squeeze-blank-lines --LONG-PROMPT --force --quit-at-eof --QUIT-AT-EOF --quiet --silent"),
      valued("-x", "--tabs"), valued("-z", "--window"), valued("-p", "--pattern"), valued("-j", "--jump-target"), valued("-b", "--buffers"), valued("-h", "--max-back-scroll"), valued("-y", "--max-forw-scroll"),
    ],
    forbidden: [
      ...forbid("-o -O --log-file --LOG-FILE", "copies the input to a file"),
      ...forbid("-k --lesskey-file --lesskey-src --lesskey-content", "loads key bindings that can set LESSOPEN, which runs a command"),
      ...forbid("-t --tag -T --tag-file", "opens a tags file"),
    ],
    operands: { check: notPlusCommand },
    examples: { readOnly: ["less README.md", "less -N a.txt"], notReadOnly: ["less -oout.txt a", "less '+!id' a", "less --lesskey-src=k a"] },
  },
  { name: "more", summary: "pages through files", numericOption: true, options: [...flags("-d -l -f -p -c -s -u -e --silent --logical --no-pause --print-over --clean-print --squeeze --plain --exit-on-eof"), valued("-n", "--lines")], operands: { check: notPlusCommand } },
  {
    name: "bat",
    summary: "prints files with syntax highlighting",
    options: [
      ...flags("-p --plain -n --number -A --show-all -P -d --diff --list-languages --list-themes -u --unbuffered --no-config"), valued("-l", "--language"), valued("--style"), valued("--theme"),
      valued("-r", "--line-range"), valued("-H", "--highlight-line"), valued("--color"), valued("--decorations"), valued("--tabs"), valued("--wrap"), valued("--terminal-width"), valued("--paging"),
      valued("-m", "--map-syntax"), valued("--file-name"), valued("--italic-text"),
    ],
    forbidden: [...forbid("--pager", "runs the named program"), ...forbid("--config-file --config-dir --cache-dir", "loads settings that may name a pager to run")],
    operands: { check: (value) => (value === "cache" ? "bat cache builds or clears bat's cache" : undefined) },
    examples: { readOnly: ["bat -p README.md"], notReadOnly: ["bat --pager='sh -c id' a", "bat cache --build"] },
  },
  ...["zcat", "bzcat", "xzcat", "zstdcat"].map(decompressor),
  {
    name: "column",
    summary: "formats input into columns",
    options: [
      ...flags("-t --table -x --fillrows -e -J --json -L --keep-empty-lines -d --table-noheadings -R"),
      valued("-s", "--separator"), valued("-o", "--output-separator"), valued("-c", "--output-width"), valued("-N", "--table-columns"), valued("-T", "--table-truncate"),
      valued("-E", "--table-noextreme"), valued("-W", "--table-wrap"), valued("-H", "--table-hide"), valued("-O", "--table-order"), valued("-n", "--table-name"), valued("-l", "--table-columns-limit"),
    ],
  },
  { name: "fold", summary: "wraps lines", options: [flag("-b", "--bytes"), flag("-s", "--spaces"), valued("-w", "--width")] },
  { name: "fmt", summary: "reformats paragraphs", options: [...flags("-c -s -u --crown-margin --split-only --uniform-spacing --tagged-paragraph -t"), valued("-p", "--prefix"), valued("-w", "--width"), valued("-g", "--goal")] },
  ...["expand", "unexpand"].map((name): ProgramSpec => ({ name, summary: "converts tabs and spaces", options: [flag("-i", "--initial"), flag("-a", "--all"), flag("--first-only"), valued("-t", "--tabs")] })),
  {
    name: "cut",
    summary: "prints selected parts of lines",
    options: [valued("-b", "--bytes"), valued("-c", "--characters"), valued("-f", "--fields"), valued("-d", "--delimiter"), flag("-s", "--only-delimited"), flag("-n"), flag("-z", "--zero-terminated"), flag("--complement"), valued("--output-delimiter")],
  },
  { name: "tr", summary: "translates characters from standard input", operands: { role: "text" }, options: flags("-c -C -d -s -t --complement --delete --squeeze-repeats --truncate-set1") },
  { name: "paste", summary: "merges lines of files", options: [valued("-d", "--delimiters"), flag("-s", "--serial"), flag("-z", "--zero-terminated")] },
  { name: "join", summary: "joins lines of two files", options: [...valuedEach("-a -e -j -o -t -v -1 -2"), ...flags("-i --ignore-case --check-order --nocheck-order --header -z --zero-terminated")] },
  { name: "look", summary: "prints lines beginning with a string", operands: { leading: ["text"] }, options: [...flags("-b -d -f -a"), valued("-t")] },
  { name: "tsort", summary: "sorts a partial order", options: [] },
  {
    name: "numfmt",
    summary: "formats numbers",
    operands: { role: "text" },
    options: [...["--from", "--to", "--from-unit", "--to-unit", "--padding", "--round", "--suffix", "--format", "--field", "--invalid"].map((name) => valued(name)), valued("-d", "--delimiter"), optional("--header"), flag("--grouping"), flag("-z", "--zero-terminated"), flag("--debug")],
  },
  {
    name: "sort",
    summary: "sorts lines",
    options: [
      ...flags("-b -d -f -g -i -M -h -n -R -r -V -c -C -m -s -u -z --debug --ignore-leading-blanks --dictionary-order --ignore-case --general-numeric-sort --ignore-nonprinting --month-sort --human-numeric-sort --numeric-sort --random-sort --reverse --version-sort --merge --stable --unique --zero-terminated"),
      optional("--check"), valued("-k", "--key"), valued("-t", "--field-separator"), valued("-S", "--buffer-size"), valued("--parallel"), valued("--batch-size"), valued("--sort"), pathValued("--random-source"),
    ],
    forbidden: [
      ...forbid("-o --output", "writes the sorted lines to a file"),
      ...forbid("--compress-program", "runs the named program"),
      ...forbid("--files0-from", "reads the names of the files to sort from another file"),
      ...forbid("-T --temporary-directory", "writes temporary files into the named directory"),
    ],
    examples: { readOnly: ["sort -u names.txt", "sort -k2 -t, data.csv", "sort -rn a"], notReadOnly: ["sort -o out a", "sort -uo/etc/cron.d/x a", "sort --output=x a", "sort --compress-program=sh a"] },
  },
  {
    name: "uniq",
    summary: "filters repeated lines",
    options: [...flags("-c -d -D -i -u -z --count --repeated --ignore-case --unique --zero-terminated"), optional("--all-repeated"), optional("--group"), valued("-f", "--skip-fields"), valued("-s", "--skip-chars"), valued("-w", "--check-chars")],
    operands: { max: 1 },
    examples: { readOnly: ["uniq -c a.txt"], notReadOnly: ["uniq a.txt out.txt"] },
  },
  {
    name: "base64",
    summary: "encodes or decodes base64",
    options: [flag("-d", "--decode"), flag("-i", "--ignore-garbage"), valued("-w", "--wrap")],
    forbidden: forbid("-o --output", "writes to a file"),
    operands: { max: 1 },
  },
  ...["exa", "eza"].map(
    (name): ProgramSpec => ({
      name,
      summary: "lists directories",
      options: [
        ...flags("-l -a -T -h -g -R -1 -G -x -F -r -d -B -H -i -S -@ -m -u -U --long --all --tree --header --group --recurse --oneline --grid --across --classify --reverse --list-dirs --binary --bytes --links --inode --blocks --extended --modified --accessed --created --git --no-git --icons --no-icons --no-permissions --no-filesize --no-user --no-time --group-directories-first --only-dirs --git-ignore"),
        valued("-L", "--level"), valued("-s", "--sort"), optional("--color"), optional("--colour"), valued("--time-style"), valued("-t", "--time"), valued("-I", "--ignore-glob"), valued("-w", "--width"),
      ],
    }),
  ),
]);
