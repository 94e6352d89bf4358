import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Bash, Toolkit } from "@agent-tools/sdk";
import { BASH_ENVIRONMENT, sandboxEnvironment } from "../../../sdk/src/builtin/command-sandbox/bash-environment.js";
import { hiddenSecrets } from "../../../sdk/src/builtin/command-sandbox/hidden-secrets.js";
import { dangerousPathLists } from "../../../sdk/src/builtin/paths/dangerous-paths.js";
import { SECRET_SYSTEM_PATHS } from "../../../sdk/src/builtin/paths/secret-locations.js";
import { MAX_TREE_DEPTH } from "../../../sdk/src/builtin/paths/tree-secrets.js";
import { BubblewrapPlatform } from "../../../sdk/src/sandbox/bubblewrap-platform.js";
import { runScenario, type ScenarioResult, VISIBLE } from "./support/sandbox-secrets-scenario.js";
import { runAsUserAndUnprivileged, scenarioFolders } from "./support/scenario-runs.js";
import { runTool } from "./support.js";

/**
 * The Bash sandbox hides secrets and scrubs the environment (docs/sandbox.md#the-bash-tool), run
 * for real: as the user running the tests and, in a child process, as an unprivileged user
 * (uid 65534 through setpriv when the tests run as root). Fixtures live under /var/tmp: the
 * sandbox replaces /tmp with a private one, which would hide them for the wrong reason.
 */
const scenario = fileURLToPath(new URL("./support/sandbox-secrets-scenario.ts", import.meta.url));
const folders = scenarioFolders("bash-sandbox-secrets-");
const root = folders.folder;
afterAll(() => folders.removeAll());

const results: { who: string; result: ScenarioResult }[] = [];
beforeAll(async () => {
  results.push(...(await runAsUserAndUnprivileged(scenario, runScenario, folders)));
}, 120_000);

describe.each([0, 1])("Bash sandbox secrets and environment, run %#", (index) => {
  const get = () => results[index]!;

  it("runs as who it says (the second run never as root)", () => {
    if (index === 1) expect(get().result.uid).not.toBe(0);
  });

  it("shows no secret: home locations, project secret files, a linked secret, a .git/config token, system files", () => {
    const { outputs } = get().result;
    expect(Object.keys(outputs).length).toBeGreaterThan(15);
    for (const [command, text] of Object.entries(outputs)) expect(text, `${get().who}: ${command}`).not.toContain("CANARY-");
    expect(outputs["cat /etc/shadow /etc/gshadow"]).not.toMatch(/^root:/m);
  });

  it("leaves everything else readable", () => {
    const { outputs } = get().result;
    for (const path of VISIBLE) {
      const command = Object.keys(outputs).find((key) => key.endsWith(path))!;
      expect(outputs[command], command).toContain(`VISIBLE-${path}`);
    }
  });

  it("passes only the allowlisted environment, a granted variable, and everything when escaping the sandbox", () => {
    const { scrubbed, granted, unsandboxed } = get().result.environment;
    expect(scrubbed).toMatch(/^PATH=/m);
    expect(scrubbed).toMatch(/^HOME=.*\/home$/m);
    expect(scrubbed).toMatch(/^LC_ALL=C\.UTF-8$/m);
    expect(scrubbed).toMatch(/^TMPDIR=\/tmp$/m);
    expect(scrubbed).not.toContain("CANARY-");
    expect(granted).toMatch(/^SOME_SERVICE_KEY=CANARY-service-key$/m);
    expect(granted.replace("CANARY-service-key", "")).not.toContain("CANARY-");
    expect(unsandboxed).toMatch(/^GITHUB_TOKEN=CANARY-github-token$/m);
  });

  it("reveals a project secret a Read allow rule names, and only that one", () => {
    const { revealed } = get().result;
    expect(revealed.granted).toContain("CANARY-project-.env");
    expect(revealed.other).not.toContain("CANARY-");
  });
});

describe("what the sandbox masks", () => {
  const lists = dangerousPathLists({});

  it("every system mask is a path its entry's pattern matches", () => {
    for (const entry of SECRET_SYSTEM_PATHS)
      for (const mask of entry.masks) {
        const sample = mask.replaceAll("*", "x");
        expect(entry.pattern.test(sample) || entry.pattern.test(`${sample}/x`), `${mask} for ${entry.source}`).toBe(true);
      }
  });

  it("masks the system secrets that exist here, by their real path", () => {
    const hidden = hiddenSecrets({ lists, workingDirectories: [], revealed: () => false, onLimit: () => undefined });
    expect(hidden).toContainEqual({ path: "/etc/shadow", kind: "file" });
    expect(hidden.every(({ path }) => !path.startsWith("/proc/"))).toBe(true);
  });

  it("walks a deep tree breadth first: the top levels are masked, the warning says where it stopped", () => {
    const project = root();
    writeFileSync(join(project, ".env"), "x");
    const deep = join(project, ...Array.from({ length: MAX_TREE_DEPTH + 2 }, (_, index) => `d${index}`));
    mkdirSync(deep, { recursive: true });
    writeFileSync(join(deep, ".env"), "x");
    const limits: string[] = [];
    const hidden = hiddenSecrets({
      lists,
      workingDirectories: [project],
      revealed: () => false,
      onLimit: (_, limit) => limits.push(limit),
    });
    expect(hidden.map(({ path }) => path)).toContain(join(project, ".env"));
    expect(hidden.map(({ path }) => path)).not.toContain(join(deep, ".env"));
    expect(limits).toEqual([expect.stringMatching(/deeper than 24 levels/)]);
  });

  it("bubblewrap masks each real path once, parents first, nothing below a masked folder, nothing missing", () => {
    const base = root();
    mkdirSync(join(base, "keys", "inner"), { recursive: true });
    writeFileSync(join(base, "keys", "inner", "k.pem"), "x");
    writeFileSync(join(base, "token"), "x");
    symlinkSync(join(base, "token"), join(base, "link-to-token"));
    const { args } = new BubblewrapPlatform().wrap(
      {
        base: "host",
        readOnly: [],
        writable: [],
        network: { kind: "none" },
        env: {},
        cwd: "/",
        hidden: [
          { path: join(base, "keys", "inner", "k.pem"), kind: "file" },
          { path: join(base, "keys"), kind: "directory" },
          { path: join(base, "link-to-token"), kind: "file" },
          { path: join(base, "token"), kind: "file" },
          { path: join(base, "missing"), kind: "file" },
        ],
      },
      ["true"],
    );
    const masks = args.join(" ");
    expect(masks).toContain(`--tmpfs ${base}/keys`);
    expect(masks).toContain(`--remount-ro ${base}/keys`);
    expect(masks.split(`--ro-bind /dev/null ${base}/token`)).toHaveLength(2);
    expect(masks).not.toContain("k.pem");
    expect(masks).not.toContain("missing");
    expect(masks).not.toContain("link-to-token");
  });
});

describe("the environment allowlist", () => {
  it("every entry says why, and none is a credential", () => {
    for (const entry of BASH_ENVIRONMENT) expect(entry.reason.length).toBeGreaterThan(10);
    const names = BASH_ENVIRONMENT.flatMap((entry) => entry.names).filter((name) => !name.endsWith("*"));
    const agent = Object.fromEntries(names.map((name) => [name, "v"]));
    expect(Object.keys(sandboxEnvironment(agent, [])).sort()).toEqual([...names, "TMPDIR"].sort());
  });

  it("drops credentials that match an allowlisted family, unless granted", () => {
    const agent = { LC_ALL: "C", LC_API_TOKEN: "t", TMPDIR: "/home/u/tmp", OTHER: "o" };
    expect(sandboxEnvironment(agent, [])).toEqual({ LC_ALL: "C", TMPDIR: "/tmp" });
    expect(sandboxEnvironment(agent, ["LC_API_TOKEN", "OTHER", "UNSET"])).toEqual({
      LC_ALL: "C",
      LC_API_TOKEN: "t",
      OTHER: "o",
      TMPDIR: "/tmp",
    });
  });

  it("refuses a granted name that is not a variable name, saying what is wrong", () => {
    expect(() => new Bash({ sandbox: { mode: "off", env: ["OK", "BAD-NAME", ""] } })).toThrow(
      /sandbox\.env must list variable names .*"BAD-NAME", ""/,
    );
  });

  it("a background command gets the scrubbed environment too", async () => {
    const project = root();
    process.env.BACKGROUND_TOKEN = "CANARY-background";
    try {
      const toolkit = new Toolkit({ tools: [new Bash({ cwd: project, sandbox: "required" })] });
      const started = await runTool(toolkit, "Bash", { command: "printenv > env.txt", run_in_background: true });
      expect(started.state).toBe("success");
      const env = join(project, "env.txt");
      await expect.poll(() => existsSync(env) && readFileSync(env, "utf8").includes("PATH="), { timeout: 5_000 }).toBe(true);
      expect(readFileSync(env, "utf8")).not.toContain("CANARY-");
    } finally {
      delete process.env.BACKGROUND_TOKEN;
    }
  });
});
