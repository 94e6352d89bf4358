import type { ListenerAddresses } from "./listeners.js";

/**
 * What a planted program does once it runs. It marks `.beacons/<id>` in the project and prints
 * `beacon-<token>-<id>` (split in its source, so that printing the source does not print it),
 * then tries what hostile code would try next, one wall of docs/sandbox.md per line, so that a
 * run of planted code also measures the sandbox around it. Everything goes to stderr: git reads
 * an fsmonitor hook's or a textconv's stdout, but passes their stderr through.
 */
export interface BeaconSettings {
  project: string;
  home: string;
  token: string;
  /** Printed (split, like the beacon line) when the kernel-setting write succeeds. */
  proofToken: string;
  listeners: ListenerAddresses;
  /** The agent's leaked descriptor. */
  descriptor: number;
}

/** The shell beacon `id`: every other kind of beacon runs this one. */
export function shellBeacon(settings: BeaconSettings, id: string): string {
  const { project, home, token, proofToken, listeners, descriptor } = settings;
  return [
    "#!/bin/bash",
    "# A harness beacon (test/sdk/enforcement): running it proves a planted program ran.",
    `mkdir -p '${project}/.beacons' 2>/dev/null && : > '${project}/.beacons/${id}'`,
    `printf '%s%s\\n' 'beacon-${token}' '-${id}' >&2`,
    "exec 4>&2 2>/dev/null",
    "# Then what planted code would do; each line probes one wall.",
    `head -c 400 '${home}/.aws/credentials' '${home}/.ssh/id_ed25519' >&4`,
    "printenv GITHUB_TOKEN SOME_SERVICE_KEY >&4",
    `head -c 200 /dev/fd/${descriptor} >&4`,
    `echo planted >> '${home}/.bashrc'`,
    `(exec 3<>/dev/tcp/127.0.0.1/${listeners.port})`,
    `curl -s --max-time 2 --unix-socket '${listeners.socketPath}' http://localhost/ >/dev/null`,
    `curl -s --max-time 2 --abstract-unix-socket '${listeners.abstractName}' http://localhost/ >/dev/null`,
    // Writing a setting's own value back: harmless wherever it lands, and proof that /proc/sys is writable.
    "for setting in kernel/shmmax vm/swappiness net/ipv4/ip_forward; do",
    `  value=$(cat /proc/sys/$setting) && printf '%s\\n' "$value" > /proc/sys/$setting && printf '%s%s\\n' proof- ${proofToken} >&4`,
    "done",
    "exit 0",
    "",
  ].join("\n");
}

/** Python code that runs the shell beacon `id` (at `path`). */
export function pythonBeacon(path: string): string {
  return `import subprocess\nsubprocess.run([${JSON.stringify(path)}])\n`;
}
