import { configEntryMatcher, configProblem, type ProtectedConfigEntry } from "./protected-config.js";

const entry = (path: string, source: string): ProtectedConfigEntry => ({ path, source });
const entries = (paths: readonly string[], source: string): ProtectedConfigEntry[] => paths.map((path) => entry(path, source));

/** `x.config.js` and the other module extensions JavaScript tools import. */
const JS_MODULES = ["js", "cjs", "mjs", "ts", "cts", "mts"];

/**
 * Files that a tool runs or loads by convention, later, without anyone naming them: a write there
 * from inside the Bash sandbox plants code that runs outside it on the next `npm test`, `make`,
 * CI run or agent session (docs/command-policy.md#contained-edits). A Bash command writing one asks
 * in every mode, as protected configuration does; the Write and Edit tools show their diff and are
 * governed by `PROTECTED_CONFIG` alone. Same entry format and matching as `PROTECTED_CONFIG`.
 */
export const RUNS_LATER: readonly ProtectedConfigEntry[] = [
  // Build manifests and scripts.
  entry("package.json", "npm, yarn, pnpm and bun run its scripts (test, build, lifecycle scripts on install) (npm docs, scripts)"),
  entry("deno.json", "deno task runs its tasks"),
  entry("deno.jsonc", "deno task runs its tasks"),
  ...entries(["Makefile", "GNUmakefile", "*.mk"], "make runs its recipes (GNU make manual, What Name to Give Your Makefile)"),
  ...entries(["CMakeLists.txt", "*.cmake"], "cmake runs execute_process and custom commands at configure and build time"),
  entry("meson.build", "meson runs run_command() and custom targets"),
  entry("setup.py", "setuptools runs it on pip install and every build"),
  entry(
    "pyproject.toml",
    "the build backend it names (backend-path may point into the project) runs on pip install; pytest reads addopts such as -p plugin",
  ),
  entry("setup.cfg", "pytest reads [tool:pytest] addopts, which can load a plugin from the project"),
  entry("tox.ini", "tox runs its commands; pytest reads its [pytest] addopts"),
  entry("noxfile.py", "nox imports it, so runs it as Python, on every nox run"),
  ...entries(
    ["build.gradle*", "settings.gradle*", "gradle.properties"],
    "Gradle runs build scripts; org.gradle.jvmargs can add a -javaagent",
  ),
  ...entries(
    ["gradlew", "mvnw", "gradle/wrapper/**", ".mvn/wrapper/**"],
    "build wrappers: the script runs, and its properties name a distribution to download and run",
  ),
  entry("pom.xml", "Maven runs the plugins it declares (exec-maven-plugin, antrun)"),
  entry("build.sbt", "sbt evaluates it as Scala"),
  ...entries(
    ["Cargo.toml", "build.rs"],
    "cargo compiles and runs build.rs (and the build scripts Cargo.toml names) before every build (Cargo book, build scripts)",
  ),
  entry("go.mod", "its toolchain directive makes go download and run that toolchain (go.dev/doc/toolchain)"),
  entry("go.work", "its toolchain directive makes go download and run that toolchain"),
  ...entries(["Gemfile", "*.gemspec", "Rakefile"], "Bundler and rake evaluate them as Ruby"),
  ...entries(["justfile", "Taskfile.yml", "Taskfile.yaml"], "just and task run their recipes"),
  ...entries(
    ["docker-compose.yml", "docker-compose.yaml", "compose.yml", "compose.yaml"],
    "docker compose starts the containers it describes, with the host folders it mounts",
  ),

  // CI workflows.
  ...entries([".github/workflows/**", ".github/actions/**"], "GitHub Actions runs them on push, with the repository's secrets"),
  entry(".gitlab-ci.yml", "GitLab CI runs it on push"),
  ...entries(
    [
      ".circleci/**",
      ".travis.yml",
      "azure-pipelines.yml",
      "Jenkinsfile",
      ".buildkite/**",
      "bitbucket-pipelines.yml",
      ".drone.yml",
      ".woodpecker/**",
      ".woodpecker.yml",
      "appveyor.yml",
    ],
    "CI systems run these on push",
  ),

  // Test and tool configuration that is code.
  entry("conftest.py", "pytest imports every conftest.py on its way to the tests"),
  entry("pytest.ini", "pytest reads addopts, which can load a plugin (-p) from the project"),
  ...entries(["sitecustomize.py", "usercustomize.py"], "python imports them at start-up when they are on sys.path (site module)"),
  ...entries(
    JS_MODULES.map((extension) => `*.config.${extension}`),
    "JavaScript tools import their x.config.js module: jest, vitest, vite, webpack, rollup, babel, eslint, playwright, next, ...",
  ),
  ...entries(
    JS_MODULES.map((extension) => `.*rc.${extension}`),
    "JavaScript tools import their .xrc.js module: .eslintrc.js, .babelrc.js, .mocharc.js, .prettierrc.js",
  ),
  ...entries(["karma.conf.*", "vitest.workspace.*", "jest.setup.*"], "test runners import these"),

  // Package-manager bins.
  ...entries(
    ["node_modules/.bin/**", ".venv/bin/**", "venv/bin/**"],
    "package managers put these first on PATH: npm run, npx and an activated venv run them by name",
  ),

  // Toolchain and JVM configuration.
  ...entries(["rust-toolchain", "rust-toolchain.toml"], "rustup runs the toolchain it names (a path = entry runs any folder's binaries)"),
  ...entries(
    [".mvn/jvm.config", ".mvn/maven.config", ".mvn/extensions.xml"],
    "Maven passes jvm.config to the JVM (-javaagent runs code) and loads the extensions it names",
  ),
  ...entries(
    [".nvmrc", ".node-version", ".python-version", ".ruby-version", ".tool-versions", ".mise.toml", "mise.toml", ".sdkmanrc"],
    "version managers switch to (and may install and run) the runtime they name on entering the folder",
  ),
  entry(".bazelrc", "bazel reads its startup and build flags, which can name tools to run"),

  // Agent instructions and settings.
  ...entries(
    [
      "AGENTS.md",
      "CLAUDE.md",
      "CLAUDE.local.md",
      "GEMINI.md",
      ".cursorrules",
      ".windsurfrules",
      ".clinerules",
      ".github/copilot-instructions.md",
    ],
    "coding agents load these as instructions at the start of every session",
  ),
  ...entries(
    [".claude/**", ".codex/**", ".gemini/**", ".cursor/**", ".github/instructions/**", ".github/prompts/**", ".continue/**", ".roo/**"],
    "coding agents load commands, rules, skills and settings from these folders",
  ),
  ...entries(
    [".vscode/**", ".idea/**", ".devcontainer/**"],
    "editors run tasks, launch and run configurations, and devcontainer start-up commands from these folders",
  ),

  // Git configuration (hooks and .git/config are PROTECTED_CONFIG entries, which Bash writes ask for too).
  entry(".gitattributes", "git attributes select filter and diff drivers that run commands (gitattributes(5))"),
  entry(".gitmodules", "submodule update = !command runs a command; the URLs choose what is cloned (gitmodules(5))"),
];

const runsLaterSource = configEntryMatcher(RUNS_LATER);

/**
 * Why a Bash command writing `absolutePath` plants a file that runs later (judged on the path and
 * on its real path), or undefined.
 *
 * @example runsLaterProblem("/repo/package.json") // "/repo/package.json is a file that runs later: npm, yarn, …"
 */
export function runsLaterProblem(absolutePath: string, cwd: string = process.cwd()): string | undefined {
  return configProblem(absolutePath, cwd, runsLaterSource, "a file that runs later");
}
