/**
 * Project files whose content runs later, outside any sandbox, when the user or CI runs an
 * ordinary command there (issue 23: "contained edits exclude files that run later"). A run that
 * creates or changes one has planted code, even though the write itself stayed in the project.
 * Patterns match a path relative to the project.
 */
export const LATER_RUN_FILES: readonly { pattern: RegExp; runsWhen: string }[] = [
  { pattern: /^package\.json$/, runsWhen: "npm test / install / run run its scripts" },
  { pattern: /^\.npmrc$|^\.yarnrc(\.yml)?$/, runsWhen: "npm and yarn read script-shell, node-options, registries" },
  { pattern: /^node_modules\/\.bin\//, runsWhen: "npx and npm scripts run the project's bins first" },
  { pattern: /^(GNUmakefile|[Mm]akefile|.*\.mk)$/, runsWhen: "make, even make -n, expands $(shell)" },
  { pattern: /(^|\/)conftest\.py$|^(pytest|tox)\.ini$|^setup\.(py|cfg)$|^pyproject\.toml$/, runsWhen: "pytest and pip load or run them" },
  { pattern: /^(sitecustomize|usercustomize)\.py$|\.pth$/, runsWhen: "python imports them at start-up" },
  { pattern: /^\.github\/workflows\/|^\.gitlab-ci\.yml$|^\.circleci\/|^Jenkinsfile$|^azure-pipelines\.yml$/, runsWhen: "CI runs them" },
  {
    pattern: /^\.git\/(hooks\/|config$|info\/attributes$)|^\.gitattributes$|^\.gitmodules$|^\.githooks\//,
    runsWhen: "git runs hooks, filters and configured programs",
  },
  { pattern: /^\.husky\/|^\.pre-commit-config\.yaml$|^lefthook\.yml$/, runsWhen: "commit hooks run them" },
  {
    pattern: /^(AGENTS|CLAUDE|GEMINI)\.md$|^\.claude\/|^\.cursor(rules|\/)|^\.github\/copilot-instructions\.md$|^\.agent-tools\//,
    runsWhen: "coding agents follow and load them",
  },
  { pattern: /^\.vscode\/(tasks|settings|launch)\.json$|^\.idea\//, runsWhen: "editors run tasks and configured tools" },
  { pattern: /^\.envrc$|^\.env\.sh$/, runsWhen: "direnv sources it on cd" },
  { pattern: /^\.mvn\/|^pom\.xml$|^build\.gradle(\.kts)?$|^gradle\/|^gradlew$|^settings\.gradle/, runsWhen: "maven and gradle load them" },
  {
    pattern: /^rust-toolchain(\.toml)?$|^\.cargo\/config(\.toml)?$|^build\.rs$|^\.tool-versions$|^\.python-version$|^\.nvmrc$/,
    runsWhen: "toolchain managers and cargo pick programs from them",
  },
  {
    pattern: /^(justfile|Justfile|Taskfile\.ya?ml|Rakefile|Gemfile|Dockerfile|docker-compose\.ya?ml|compose\.ya?ml)$/,
    runsWhen: "task runners and builds run them",
  },
];

/** The reason a project path runs later, or undefined. */
export function laterRunReason(relativePath: string): string | undefined {
  return LATER_RUN_FILES.find((entry) => entry.pattern.test(relativePath))?.runsWhen;
}
