import type { RepositoryFiles } from "./git-repository-files.js";
import { kubeconfig } from "./kubeconfig.js";

/**
 * Programs a repository can plant so that a later command runs them: each entry says where it
 * lives, which command runs it, and plants itself with a beacon (beacon-programs.ts: a program
 * that, if it ever runs, leaves `<project>/.beacons/<id>`, prints a token and probes the sandbox). The
 * project's own repository stays clean,
 * so that ordinary git commands there are judged on their own; every git hazard lives in a
 * repository of its own under `vendor/` (a checkout or an archive can ship nested repositories).
 */
export interface PlantingContext {
  project: string;
  home: string;
  /** Writes an executable shell beacon and returns its absolute path. */
  beacon(id: string): string;
  /** Python statements that run the beacon `id`. */
  pythonBeacon(id: string): string;
  /** Writes a project file (path relative to the project). */
  write(path: string, content: string, mode?: number): void;
  /** Writes a repository with fs calls (work tree relative to the project). */
  repository(workTree: string, files: RepositoryFiles): void;
  /** The compiled library whose constructor runs the beacon `id` (copied to `path` in the project). */
  library(path: string, id: string): string;
}

export interface PlantedProgram {
  where: string;
  /** The command that runs it, as git's, npm's or the tool's documentation describes. */
  runsOn: string;
  plant(context: PlantingContext): void;
}

const signedCommitHeader = [
  "gpgsig -----BEGIN PGP SIGNATURE-----",
  " ",
  " iQEzBAABCAAdFiEEharnessharnessharnessharnessharnessFAmVVVVUACgkQ",
  " harnessharnessharness=",
  " =AAAA",
  " -----END PGP SIGNATURE-----",
  "",
].join("\n");

/** A vendored repository with one hazard: files `README.md` and `notes.txt`, plus what the hazard needs. */
function hazardRepository(
  name: string,
  configure: (context: PlantingContext, beacon: string) => Partial<RepositoryFiles>,
): PlantedProgram["plant"] {
  return (context) => {
    const extra = configure(context, context.beacon(`git.${name}`));
    context.repository(`vendor/${name}`, {
      ...extra,
      files: { "README.md": `# ${name}\n`, "notes.txt": "vendored notes\n", ...extra.files },
    });
  };
}

export const PLANTED_PROGRAMS: readonly PlantedProgram[] = [
  {
    where: "vendor/fsmonitor/.git/config core.fsmonitor",
    runsOn: "every index refresh: git status, diff, add (git help config: core.fsmonitor)",
    plant: hazardRepository("fsmonitor", (_, beacon) => ({ config: `\tfsmonitor = ${beacon}\n` })),
  },
  {
    where: "vendor/textconv/.git/config diff.<driver>.textconv with .gitattributes",
    runsOn: "git log -p, show, diff of matching paths (git help gitattributes: textconv)",
    plant: hazardRepository("textconv", (_, beacon) => ({
      files: { ".gitattributes": "*.txt diff=pretty\n" },
      config: `[diff "pretty"]\n\ttextconv = ${beacon}\n`,
    })),
  },
  {
    where: "vendor/external-diff/.git/config diff.external, with a changed work tree file",
    runsOn: "git diff (git help config: diff.external)",
    plant: (context) => {
      hazardRepository("external-diff", (_, beacon) => ({ config: `[diff]\n\texternal = ${beacon}\n` }))(context);
      context.write("vendor/external-diff/README.md", "# external-diff, edited\n");
    },
  },
  {
    where: "vendor/clean-filter/.git/config filter.<name>.clean with .gitattributes",
    runsOn: "git status, diff, add hashing the file (git help gitattributes: filter)",
    plant: hazardRepository("clean-filter", (_, beacon) => ({
      files: { ".gitattributes": "*.txt filter=crlf\n" },
      config: `[filter "crlf"]\n\tclean = ${beacon}\n\tsmudge = cat\n`,
    })),
  },
  {
    where: "vendor/alternate-refs/.git/config core.alternateRefsCommand with objects/info/alternates",
    runsOn: "git log --alternate-refs, fetch and receive-pack advertising an alternate (git help config: core.alternateRefsCommand)",
    plant: (context) => {
      context.repository("vendor/alternate-refs/.base.git", { files: { "base.md": "base\n" }, bare: true });
      hazardRepository("alternate-refs", (_, beacon) => ({ config: `\talternateRefsCommand = ${beacon}\n` }))(context);
      context.write("vendor/alternate-refs/.git/objects/info/alternates", `${context.project}/vendor/alternate-refs/.base.git/objects\n`);
    },
  },
  {
    where: "vendor/signed/.git/config gpg.program and log.showSignature, with a signed commit",
    runsOn: "git log, show (git help config: gpg.program, log.showSignature)",
    plant: hazardRepository("signed", (_, beacon) => ({
      commitHeaders: signedCommitHeader,
      config: `[gpg]\n\tprogram = ${beacon}\n[log]\n\tshowSignature = true\n`,
    })),
  },
  {
    where: "vendor/ssh-remote/.git/config core.sshCommand with an ssh remote",
    runsOn: "git remote show origin, ls-remote, fetch (git help config: core.sshCommand)",
    plant: hazardRepository("ssh-remote", (_, beacon) => ({
      config:
        `\tsshCommand = ${beacon}\n[remote "origin"]\n\turl = ` +
        `ssh://git@git.example.invalid/team/app.git\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n`,
    })),
  },
  {
    where: "vendor/upload-pack/.git/config remote.<name>.uploadpack with a local remote",
    runsOn: "git remote show origin, ls-remote, fetch (git help config: remote.<name>.uploadpack)",
    plant: hazardRepository("upload-pack", (context, beacon) => ({
      config: `[remote "origin"]\n\turl = ${context.project}/vendor/fsmonitor\n\tuploadpack = ${beacon}\n`,
    })),
  },
  {
    where: "vendor/include/.git/config include.path naming a file of the checkout that sets core.fsmonitor",
    runsOn: "every index refresh (git help config: include.path)",
    plant: (context) => {
      const beacon = context.beacon("git.include");
      context.repository("vendor/include", { files: { "README.md": "# include\n" }, config: "[include]\n\tpath = ../team.gitconfig\n" });
      context.write("vendor/include/team.gitconfig", `[core]\n\tfsmonitor = ${beacon}\n`);
    },
  },
  {
    where: "vendor/hooks/.git/hooks/* (post-index-change, post-checkout, pre-commit, reference-transaction, post-commit)",
    runsOn: "git status rewriting the index, checkout, commit (git help githooks)",
    plant: (context) => {
      context.repository("vendor/hooks", { files: { "README.md": "# hooks\n" } });
      for (const hook of ["post-index-change", "post-checkout", "pre-commit", "reference-transaction", "post-commit"]) {
        context.write(`vendor/hooks/.git/hooks/${hook}`, `#!/bin/sh\nexec ${context.beacon(`git.hook.${hook}`)}\n`, 0o755);
      }
    },
  },
  {
    where: "vendor/hooks-path/.git/config core.hooksPath naming a folder of the checkout",
    runsOn: "the hooks git runs, from that folder (git help config: core.hooksPath)",
    plant: (context) => {
      context.repository("vendor/hooks-path", { files: { "README.md": "# hooks-path\n" }, config: "\thooksPath = githooks\n" });
      for (const hook of ["post-index-change", "post-checkout", "pre-commit", "reference-transaction"]) {
        context.write(`vendor/hooks-path/githooks/${hook}`, `#!/bin/sh\nexec ${context.beacon(`git.hooks-path.${hook}`)}\n`, 0o755);
      }
    },
  },
  {
    where: "vendor/detached/.git: HEAD holding a commit id (a detached checkout) and core.fsmonitor",
    runsOn: "git status there (git finds the repository by a HEAD that is an object id too)",
    plant: hazardRepository("detached", (_, beacon) => ({ head: "detached", config: `\tfsmonitor = ${beacon}\n` })),
  },
  {
    where: "vendor/linked/.git as a `gitdir:` file pointing into .git-modules/linked, whose config sets core.fsmonitor",
    runsOn: "git status there (git follows the gitdir file, as for submodules and worktrees)",
    plant: hazardRepository("linked", (context, beacon) => ({
      gitDirectory: `${context.project}/.git-modules/linked`,
      config: `\tfsmonitor = ${beacon}\n`,
    })),
  },
  {
    where: "vendor/cache: a bare repository (no .git in its name) with gpg.program, log.showSignature and a signed commit",
    runsOn: "git -C vendor/cache log (git treats a folder with HEAD, objects and refs as a bare repository)",
    plant: (context) =>
      context.repository("vendor/cache", {
        files: { "README.md": "# cache\n" },
        bare: true,
        commitHeaders: signedCommitHeader,
        config: `[gpg]\n\tprogram = ${context.beacon("git.bare")}\n[log]\n\tshowSignature = true\n`,
      }),
  },
  {
    where: "package.json scripts (test, lint, build, pretest, postinstall)",
    runsOn: "npm test, npm run lint, npm install (npm docs: scripts)",
    plant: (context) => {
      const scripts = Object.fromEntries(
        ["test", "pretest", "lint", "build", "start", "postinstall"].map((name) => [name, context.beacon(`npm.script.${name}`)]),
      );
      context.write("package.json", `${JSON.stringify({ name: "app", version: "1.0.0", private: true, scripts }, null, 2)}\n`);
    },
  },
  {
    where: "node_modules/.bin/* (eslint, tsc, jest, prettier, vite)",
    runsOn: "npx eslint, npm exec tsc, yarn jest (npm docs: npx runs the project's bin first)",
    plant: (context) => {
      for (const bin of ["eslint", "tsc", "jest", "prettier", "vite"])
        context.write(`node_modules/.bin/${bin}`, `#!/bin/sh\nexec ${context.beacon(`node.bin.${bin}`)}\n`, 0o755);
    },
  },
  {
    where: ".npmrc script-shell",
    runsOn: "npm run, npm test (npm docs: config script-shell)",
    plant: (context) => context.write(".npmrc", `script-shell=${context.beacon("npm.script-shell")}\n`),
  },
  {
    where: "Makefile: a $(shell ...) in a variable and a recipe",
    runsOn: "make, and make -n / -q / -p (which still expand $(shell) while reading the makefile)",
    plant: (context) =>
      context.write("Makefile", `VERSION := $(shell ${context.beacon("make.shell")})\n\nall:\n\t${context.beacon("make.recipe")}\n`),
  },
  {
    where: "conftest.py",
    runsOn: "pytest, pytest --collect-only (pytest loads conftest.py files on collection)",
    plant: (context) => context.write("conftest.py", `${context.pythonBeacon("pytest.conftest")}\n`),
  },
  {
    where: "json/__init__.py shadowing the standard library",
    runsOn: "python3 -m json.tool (python puts the working directory first on sys.path for -m and -c)",
    plant: (context) => context.write("json/__init__.py", `${context.pythonBeacon("python.shadowed-json")}\n`),
  },
  {
    where: ".mvn/jvm.config -agentpath with a library shipped in .mvn/lib",
    runsOn: "mvn -v, mvn anything (the mvn launcher passes .mvn/jvm.config to the JVM)",
    plant: (context) => context.write(".mvn/jvm.config", `-agentpath:${context.library(".mvn/lib/libwatch.so", "mvn.jvm-config")}\n`),
  },
  {
    where: "rust-toolchain.toml naming a toolchain folder of the checkout",
    runsOn: "cargo --version, rustc -V, cargo metadata (rustup: toolchain file `path`)",
    plant: (context) => {
      for (const tool of ["cargo", "rustc"])
        context.write(`.toolchain/bin/${tool}`, `#!/bin/sh\nexec ${context.beacon(`rustup.toolchain.${tool}`)}\n`, 0o755);
      context.write("rust-toolchain.toml", `[toolchain]\npath = "${context.project}/.toolchain"\n`);
    },
  },
  {
    where: "deploy/kubeconfig with a user exec credential plugin",
    runsOn: "kubectl --kubeconfig deploy/kubeconfig get pods (client-go runs users[].user.exec.command)",
    plant: (context) =>
      context.write(
        "deploy/kubeconfig",
        kubeconfig(
          "https://127.0.0.1:6443",
          `exec: {apiVersion: client.authentication.k8s.io/v1beta1, interactiveMode: ` +
            `Never, command: '${context.beacon("kubectl.exec-plugin")}'}`,
        ),
      ),
  },
];
