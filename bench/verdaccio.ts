/**
 * Verdaccio, a self-hosted npm registry, as the benchmarks' outside baseline for publishing: it is
 * installed from the npm registry into a scratch folder (kept for later runs, never a dependency of
 * this project) and runs in a child process of its own on 127.0.0.1, storing in a temp folder,
 * anyone allowed to publish. `publishBody` is what `npm publish` sends: the manifest and the
 * tarball inline, base64.
 *
 *   const verdaccio = await startVerdaccio();
 *   await fetch(`${verdaccio.url}/${name}`, { method: "PUT", body: publishBody(name, bytes, readme), headers: JSON_HEADERS });
 *   await verdaccio.close();
 */
import { execFile, fork } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rename, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";

/** The newest Verdaccio that runs on Node 20 (6.10 needs Node 22). */
export const VERDACCIO_VERSION = "6.8.0";

export const JSON_HEADERS = { "content-type": "application/json" };

export interface RunningVerdaccio {
  url: string;
  close(): Promise<void>;
}

/** Where Verdaccio is installed, once; concurrent first runs each install into a temp folder and one rename wins. */
async function installVerdaccio(): Promise<string> {
  const dir = join(tmpdir(), `agent-tools-bench-verdaccio-${VERDACCIO_VERSION}`);
  if (existsSync(join(dir, "node_modules", "verdaccio", "package.json"))) return dir;
  const scratch = await mkdtemp(join(tmpdir(), "agent-tools-bench-verdaccio-install-"));
  try {
    await writeFile(join(scratch, "package.json"), `${JSON.stringify({ private: true, description: "benchmark baseline" })}\n`);
    console.error(`installing verdaccio@${VERDACCIO_VERSION} from the npm registry into ${dir} (once)…`);
    await promisify(execFile)("npm", ["install", "--no-audit", "--no-fund", "--ignore-scripts", `verdaccio@${VERDACCIO_VERSION}`], {
      cwd: scratch,
      maxBuffer: 16 * 1024 * 1024,
    });
    await mkdir(dir, { recursive: true });
    await rename(join(scratch, "node_modules"), join(dir, "node_modules")).catch(() => undefined);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
  return dir;
}

export async function startVerdaccio(): Promise<RunningVerdaccio> {
  const installed = await installVerdaccio();
  const storage = await mkdtemp(join(tmpdir(), "agent-tools-bench-verdaccio-storage-"));
  const child = fork(new URL("./verdaccio-child.ts", import.meta.url), [installed, storage], {
    execArgv: ["--import", "tsx"],
    stdio: ["ignore", "ignore", "inherit", "ipc"],
  });
  const url = await new Promise<string>((resolve, reject) => {
    child.once("message", (port) => resolve(`http://127.0.0.1:${String(port)}`));
    child.once("exit", (code) => reject(new Error(`verdaccio exited with ${code} before listening`)));
  });
  return {
    url,
    async close() {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGKILL");
      await exited;
      await rm(storage, { recursive: true, force: true });
    },
  };
}

/** The body of `npm publish` for package `name` at 1.0.0: its tarball (`bytes`) inline, its readme in the manifest. */
export function publishBody(name: string, bytes: Uint8Array, readme: string): string {
  const file = `${name}-1.0.0.tgz`;
  return JSON.stringify({
    _id: name,
    name,
    description: "benchmark package",
    "dist-tags": { latest: "1.0.0" },
    versions: {
      "1.0.0": {
        name,
        version: "1.0.0",
        description: "benchmark package",
        readme,
        _id: `${name}@1.0.0`,
        dist: {
          shasum: createHash("sha1").update(bytes).digest("hex"),
          integrity: `sha512-${createHash("sha512").update(bytes).digest("base64")}`,
          tarball: `http://127.0.0.1/${name}/-/${file}`,
        },
      },
    },
    readme,
    _attachments: {
      [file]: { content_type: "application/octet-stream", data: Buffer.from(bytes).toString("base64"), length: bytes.byteLength },
    },
  });
}
