import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { Bash, PermissionEngine } from "@agent-tools/sdk";
import { awkProgramProblem, tokenizeAwk } from "../../../sdk/src/builtin/shell/awk-program.js";
import { loadBashParser } from "../../../sdk/src/builtin/shell/bash-parser.js";
import { temporaryDirectory } from "./support.js";

/** awk programs judged from their tokens (issue 24, class 4). Programs are only lexed, never run. */
describe("the awk lexer", () => {
  it.each([
    ['{print "a;b" > "x"}', ["{", "print", "a;b", ">", "x", "}"]],
    ['/"/ { n++ }', ['"', "{", "n", "++", "}"]],
    ["{ print $1/2/3 }", ["{", "print", "$", "1", "/", "2", "/", "3", "}"]],
    ["$0 ~ /[/]x/", ["$", "0", "~", "[/]x"]],
    ['# print > "x"\n{ print }', ["\n", "{", "print", "}"]],
    ['{ print "a\\"b" }', ["{", "print", 'a\\"b', "}"]],
    ["a = b\\\n+ c", ["a", "=", "b", "+", "c"]],
    ['print |& "cmd"', ["print", "|&", "cmd"]],
    ['if (x) /"/; y = f(x) / 2', ["if", "(", "x", ")", '"', ";", "y", "=", "f", "(", "x", ")", "/", "2"]],
  ])("reads %j as %j", (program, texts) => {
    expect(tokenizeAwk(program).map((token) => token.text)).toEqual(texts);
  });

  it("says which tokens are strings and regular expressions", () => {
    expect(tokenizeAwk('/a"b/ { x = "/c/" }').map((token) => token.kind)).toEqual([
      "regex",
      "operator",
      "name",
      "operator",
      "string",
      "operator",
    ]);
  });
});

describe("what an awk program does", () => {
  it.each([
    "{print $1}",
    "$3 > 1000 {print $1}",
    "length($0) > 80",
    "{s+=$2} END {print s}",
    '/x/ {print "a>b"}',
    '{print "a;b|c", $2}',
    "{ if ($1 > 5) print $1 }",
    "{ print ($1 > $2) ? $1 : $2 }",
    "{ print $1, ($2 >= 3) }",
    "NR==FNR{a[$1];next} $1 in a",
    '{ print > "/dev/stderr" }',
    '{ printf "%s\\n", $0 > "/dev/stdout" }',
    "{ while ((getline line) > 0) n++ } END { print n }",
    "{ getline; print }",
    '$1 == "system" || /ENVIRON|getline/',
    '{ x = $1 } x > 2 { print x; close("f"); fflush() }',
    '# system("id") in a comment\n{ print }',
    '{ gsub(/a>b/, "c"); print }',
  ])("%j only reads its input and prints", (program) => {
    expect(awkProgramProblem(program)).toBeUndefined();
  });

  it.each([
    ['{print "a;" > "/tmp/x"}', /redirects print output/],
    ['{print "}" > "out"}', /redirects print output/],
    ['/"/ { print > "x" }', /redirects print output/],
    ['# a comment "\n{ print > "x" }', /redirects print output/],
    ['BEGIN { print "GET /" > "/inet/tcp/0/example.com/80" }', /redirects print output/],
    ['{ print $1 >> "log" }', /redirects print output/],
    ['{ printf("%s\\n", $0) > "out" }', /redirects print output/],
    ['{ print $1,\n $2 > "out" }', /redirects print output/],
    ['{ print > "/dev/stderr" "x" }', /redirects print output/],
    ["{ print > $2 }", /redirects print output/],
    ['BEGIN { "id" | getline x; print x }', /pipes to or from a command/],
    ['{ print | "sh" }', /pipes to or from a command/],
    ['BEGIN { print "x" |& "/inet/tcp/0/h/80" }', /pipes to or from a command/],
    ['BEGIN { system ( "id" ) }', /system\(\)/],
    ['BEGIN { system\n("id") }', /system\(\)/],
    ['BEGIN { getline l < "/etc/shadow"; print l }', /getline </],
    ['{ getline $1 < ".env" }', /getline </],
    ["BEGIN { while ((getline line < f) > 0) print line }", /getline </],
    ['BEGIN { print ENVIRON["AWS_SECRET_ACCESS_KEY"] }', /environment/],
    ['BEGIN { print SYMTAB["ENVIRON"]["HOME"] }', /SYMTAB/],
    ['BEGIN { print PROCINFO["pid"] }', /PROCINFO/],
    ['BEGIN { ARGV[1] = "/etc/shadow"; ARGC = 2 } { print }', /ARGV/],
    ['@include "lib.awk"', /@include/],
    ['@load "filefuncs"', /@load/],
    ['BEGIN { f = "system"; @f("id") }', /@f/],
    ['{ print "unterminated }', /unterminated string/],
    ['{ if (1) /"/; print > "out" # "\n}', /redirects print output/],
    ['{ while ($1) /"/ && n++; print | "sh" # "\n}', /pipes to or from a command/],
  ])("%j asks (%s)", (program, reason) => {
    expect(awkProgramProblem(program)).toMatch(reason);
  });
});

describe("awk on the Bash tool", () => {
  const project = temporaryDirectory("builtin-awk-program-");
  writeFileSync(join(project.path, "data.txt"), "a 1\n");
  const bash = new Bash({ cwd: project.path, sandbox: "off" });
  beforeAll(async () => {
    await loadBashParser();
  });
  afterAll(() => project.remove());

  it("joins gawk's -e texts before judging them", async () => {
    expect(await bash.checkReadOnly({ command: "gawk -e '{ print $1,' -e '$2 > \"out\" }' data.txt" })).toBe(false);
    expect(await bash.checkReadOnly({ command: "gawk -e '{ n++ }' -e 'END { print n }' data.txt" })).toBe(true);
  });

  it("names the token that decided in the reason (policy explain)", async () => {
    const decision = await new PermissionEngine({ workingDirectories: [project.path] }).checkPermission(bash, {
      command: `awk '{ print "a;" > "/inet/tcp/0/example.com/80" }' data.txt`,
    });
    expect(decision.behavior).toBe("ask");
    expect(decision.reason).toBe("Safety check: fact.program-text: readonly.awk.check");
    expect(decision.message).toContain('> "/inet/tcp/0/example.com/80"');
  });
});
