import { SECRET_VARIABLE_NAME } from "../shell/secret-variables.js";

/** A group of agent variables a sandboxed Bash command sees, and why it may. `PREFIX_*` names a family. */
export interface EnvironmentEntry {
  names: readonly string[];
  reason: string;
}

/**
 * The agent variables a sandboxed Bash command inherits (docs/sandbox.md#the-bash-tool): what
 * programs need to find themselves, their configuration and the user's locale, and nothing that
 * is a credential or reaches one (`SSH_AUTH_SOCK`, `DBUS_SESSION_BUS_ADDRESS`, `XDG_RUNTIME_DIR`,
 * `DISPLAY` and proxy URLs are left out on purpose). Names the credential recognisers of
 * `secret-variables.ts` match never pass unless granted with `sandbox: { env: [...] }`.
 */
export const BASH_ENVIRONMENT: readonly EnvironmentEntry[] = [
  { names: ["PATH"], reason: "where programs are found: the agent's own, so the same programs run" },
  { names: ["HOME"], reason: "where programs look for their configuration (read-only inside, its secrets masked)" },
  { names: ["USER", "LOGNAME"], reason: "the user's name, which programs print or record" },
  { names: ["SHELL"], reason: "the user's shell, for programs that start one" },
  { names: ["LANG", "LANGUAGE", "LC_*"], reason: "the locale: how text is encoded and numbers and dates are printed" },
  { names: ["TZ"], reason: "the time zone" },
  { names: ["TERM", "COLORTERM", "NO_COLOR", "FORCE_COLOR", "CLICOLOR", "COLUMNS", "LINES"], reason: "terminal type, size and colour" },
  { names: ["CI"], reason: "tells tools to print for a log rather than a terminal" },
  {
    names: ["XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME"],
    reason: "where programs keep configuration and caches (secret locations there are masked too)",
  },
  {
    names: [
      "JAVA_HOME",
      "GOROOT",
      "GOPATH",
      "GOBIN",
      "CARGO_HOME",
      "RUSTUP_HOME",
      "NVM_DIR",
      "NVM_BIN",
      "PYENV_ROOT",
      "VIRTUAL_ENV",
      "CONDA_PREFIX",
      "CONDA_DEFAULT_ENV",
      "GEM_HOME",
      "GEM_PATH",
      "ANDROID_HOME",
      "ANDROID_SDK_ROOT",
      "DOTNET_ROOT",
      "BUN_INSTALL",
      "DENO_DIR",
      "PNPM_HOME",
      "VOLTA_HOME",
      "ASDF_DIR",
      "ASDF_DATA_DIR",
      "SDKMAN_DIR",
      "GRADLE_HOME",
      "MAVEN_HOME",
      "M2_HOME",
    ],
    reason: "where a toolchain is installed: folders, not credentials",
  },
  {
    names: ["SSL_CERT_FILE", "SSL_CERT_DIR", "NODE_EXTRA_CA_CERTS", "REQUESTS_CA_BUNDLE", "CURL_CA_BUNDLE"],
    reason: "TLS trust roots (paths to public certificates), needed once the network is granted",
  },
];

/** Set inside, whatever the agent has: the sandbox's private /tmp is its scratch space. */
const FIXED = { TMPDIR: "/tmp" };

const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

function allowed(name: string): boolean {
  return BASH_ENVIRONMENT.some((entry) =>
    entry.names.some((pattern) => (pattern.endsWith("*") ? name.startsWith(pattern.slice(0, -1)) : name === pattern)),
  );
}

/** Throws a TypeError naming every `sandbox.env` entry that is not a variable name. */
export function checkGrantedNames(names: unknown): asserts names is string[] | undefined {
  if (names === undefined) return;
  const bad = Array.isArray(names) ? names.filter((name) => typeof name !== "string" || !VARIABLE_NAME.test(name)) : [names];
  if (bad.length > 0)
    throw new TypeError(
      `sandbox.env must list variable names (letters, digits and _, not starting ` +
        `with a digit), got ${bad.map((name) => JSON.stringify(name)).join(", ")}.`,
    );
}

/**
 * The complete environment of a sandboxed command: the allowlisted agent variables that are not
 * credentials, `TMPDIR=/tmp`, and the `granted` names copied as they are (credentials included).
 *
 * @example sandboxEnvironment({ PATH: "/usr/bin", GITHUB_TOKEN: "x" }, []) // { PATH: "/usr/bin", TMPDIR: "/tmp" }
 */
export function sandboxEnvironment(agent: NodeJS.ProcessEnv, granted: readonly string[]): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(agent))
    if (value !== undefined && allowed(name) && !SECRET_VARIABLE_NAME.test(name)) env[name] = value;
  Object.assign(env, FIXED);
  for (const name of granted) {
    const value = agent[name];
    if (value !== undefined) env[name] = value;
  }
  return env;
}
