import type { Command } from "commander";

/**
 * Examples per command, shown at the end of its `--help` (docs/cli.md): typical invocations against
 * a running registry (AGENT_TOOLS_REGISTRY and, for writes, AGENT_TOOLS_TOKEN set), `<…>` standing
 * for what only the reader knows. Keyed by the command's path; a test fails for a command without one.
 */
export const COMMAND_EXAMPLES: Readonly<Record<string, readonly string[]>> = {
  init: ["agent-tools init acme.greet", "agent-tools init acme.rot13 --runtime binary"],
  run: [`agent-tools run ./acme.greet --input '{"name": "Ada"}'`, `agent-tools run text-stats@1.0.0 --input '{"text": "a b a"}'`],
  pack: ["agent-tools pack ./acme.greet -o acme.greet-bundle.zip"],
  publish: ["agent-tools publish ./acme.greet", "agent-tools publish acme.greet-bundle.zip --sign acme.pem"],
  get: ["agent-tools get text-stats", "agent-tools get text-stats@1.0.0 --json"],
  list: ["agent-tools list --tag nlp"],
  versions: ["agent-tools versions text-stats"],
  search: ["agent-tools search count words --type text-processing --limit 5"],
  delete: ["agent-tools delete text-stats@1.0.0 --yes", "agent-tools delete text-stats"],
  yank: [`agent-tools yank acme-search@1.2.0 --reason "leaks the API key"`, "agent-tools yank acme-search@1.2.0 --undo"],
  deprecate: [`agent-tools deprecate acme-search@1.1.0 --message "use 2.x"`],
  mcp: ["agent-tools mcp text-stats --builtin Read,Grep", "agent-tools mcp ./acme.greet --http --port 7000"],
  "policy explain": [`agent-tools policy explain "git log --oneline | head"`],
  "policy table": ["agent-tools policy table > command-policy.md"],
  "registry doctor": ["agent-tools registry doctor --fix"],
  "registry smoke": ["agent-tools registry smoke --registry https://tools.example.com --token <admin token>"],
  "token create": ["agent-tools token create --name acme --scope 'acme-*' --actions publish,yank --expires 30d"],
  "token list": ["agent-tools token list"],
  "token revoke": ["agent-tools token revoke acme"],
  audit: ["agent-tools audit --limit 20"],
  "key add": ["agent-tools key add acme acme.pub.pem"],
  "key list": ["agent-tools key list acme"],
  "key revoke": ["agent-tools key revoke acme <key_id from key list>"],
  "trust list": ["agent-tools trust list"],
  "trust forget": ["agent-tools trust forget acme-search", "agent-tools trust forget --publisher acme"],
  "permissions trust": ["agent-tools permissions trust", "agent-tools permissions trust ~/src/cloned-repo"],
  "permissions untrust": ["agent-tools permissions untrust ~/src/cloned-repo"],
  "permissions grants": ["agent-tools permissions grants", "agent-tools permissions grants --folder ~/src/project"],
  "permissions revoke": [`agent-tools permissions revoke "Bash(npm test:*)" --layer local`],
  "permissions log": ["agent-tools permissions log --since 1h", "agent-tools permissions log --since 7d --json"],
};

/** The path `COMMAND_EXAMPLES` keys a command by: its names below the program, e.g. `token create`. */
export function commandPath(command: Command): string {
  const names: string[] = [];
  for (let current: Command | null = command; current?.parent; current = current.parent) names.unshift(current.name());
  return names.join(" ");
}

/** Adds "Examples:" to the help of every command that runs something (groups such as `token` list theirs). */
export function addCommandExamples(program: Command): void {
  const visit = (command: Command) => {
    const examples = COMMAND_EXAMPLES[commandPath(command)];
    if (examples !== undefined) command.addHelpText("after", `\nExamples:\n${examples.map((example) => `  ${example}`).join("\n")}\n`);
    for (const sub of command.commands) visit(sub);
  };
  for (const command of program.commands) visit(command);
}
