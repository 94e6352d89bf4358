import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { tarGzFiles } from "../../support/bundles.js";

/**
 * Writes a source distribution `<name>-<version>.tar.gz` of `sourcePackageFiles` into `dir`.
 */
export async function writeSourcePackage(dir: string, name: string, version: string, observeSource: string): Promise<string> {
  const files = sourcePackageFiles(name, version, observeSource);
  const root = `${name}-${version}`;
  await mkdir(dir, { recursive: true });
  const path = join(dir, `${root}.tar.gz`);
  await writeFile(path, tarGzFiles(Object.fromEntries(Object.entries(files).map(([file, text]) => [`${root}/${file}`, text]))));
  return path;
}

/**
 * The files of a source package (`pyproject.toml`, `backend.py`, `PKG-INFO`) built by an in-tree
 * PEP 517 backend (`backend-path = ["."]`, no build requirements, so pip needs no network to build
 * it). Building it runs `observe()`, the Python function `observeSource` defines (`def observe():`
 * returning a JSON-serialisable value), and the wheel it builds holds that value as
 * `<name>.OBSERVED`: whatever the build could see and do, reported to the tool that imports it.
 */
export function sourcePackageFiles(name: string, version: string, observeSource: string): Record<string, string> {
  const pyproject = [
    "[build-system]",
    "requires = []",
    'build-backend = "backend"',
    'backend-path = ["."]',
    "",
    "[project]",
    `name = "${name}"`,
    `version = "${version}"`,
    "",
  ].join("\n");
  const backend = [
    "import base64, hashlib, json, os, zipfile",
    `NAME, VERSION = ${JSON.stringify(name)}, ${JSON.stringify(version)}`,
    "",
    observeSource,
    "",
    "def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):",
    "    info = f'{NAME}-{VERSION}.dist-info'",
    "    files = {",
    "        f'{NAME}/__init__.py': 'import json\\nOBSERVED = json.loads(' + repr(json.dumps(observe())) + ')\\n',",
    "        f'{info}/METADATA': f'Metadata-Version: 2.1\\nName: {NAME}\\nVersion: {VERSION}\\n',",
    "        f'{info}/WHEEL': 'Wheel-Version: 1.0\\nGenerator: agent-tools-test\\nRoot-Is-Purelib: true\\nTag: py3-none-any\\n',",
    "    }",
    "    digest = lambda text: base64.urlsafe_b64encode(hashlib.sha256(text.encode()).digest()).rstrip(b'=').decode()",
    "    record = [f'{path},sha256={digest(text)},{len(text.encode())}' for path, text in files.items()]",
    "    files[f'{info}/RECORD'] = '\\n'.join(record) + f'\\n{info}/RECORD,,\\n'",
    "    wheel = f'{NAME}-{VERSION}-py3-none-any.whl'",
    "    with zipfile.ZipFile(os.path.join(wheel_directory, wheel), 'w') as archive:",
    "        for path, text in files.items():",
    "            archive.writestr(path, text)",
    "    return wheel",
    "",
  ].join("\n");
  return { "pyproject.toml": pyproject, "backend.py": backend, "PKG-INFO": `Metadata-Version: 2.1\nName: ${name}\nVersion: ${version}\n` };
}
