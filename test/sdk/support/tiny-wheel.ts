import { createHash } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { zipFiles } from "../../support/bundles.js";

/**
 * Writes a pure-Python wheel `<name>-<version>-py3-none-any.whl` into `dir`: a zip holding
 * `<name>/__init__.py` and the `.dist-info` files pip needs, with a correct RECORD. `consoleScripts`
 * (script name → `module:function`) become its `entry_points.txt`.
 */
export async function writeTinyWheel(
  dir: string,
  name: string,
  version: string,
  initPy: string,
  consoleScripts: Record<string, string> = {},
): Promise<string> {
  const info = `${name}-${version}.dist-info`;
  const files: Record<string, string> = {
    [`${name}/__init__.py`]: initPy,
    [`${info}/METADATA`]: `Metadata-Version: 2.1\nName: ${name}\nVersion: ${version}\n`,
    [`${info}/WHEEL`]: "Wheel-Version: 1.0\nGenerator: agent-tools-test\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
  };
  const scripts = Object.entries(consoleScripts).map(([script, target]) => `${script} = ${target}\n`);
  if (scripts.length > 0) files[`${info}/entry_points.txt`] = `[console_scripts]\n${scripts.join("")}`;
  const record = Object.entries(files).map(([path, text]) => {
    const digest = createHash("sha256").update(text).digest("base64url");
    return `${path},sha256=${digest},${Buffer.byteLength(text)}`;
  });
  files[`${info}/RECORD`] = `${record.join("\n")}\n${info}/RECORD,,\n`;
  await mkdir(dir, { recursive: true });
  const path = join(dir, `${name}-${version}-py3-none-any.whl`);
  await writeFile(path, zipFiles(files));
  return path;
}
