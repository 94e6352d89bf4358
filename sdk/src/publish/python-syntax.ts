import { execFile } from "node:child_process";
import { tmpdir } from "node:os";

/** One Python source to compile: its path in the archive and its bytes. */
export interface PythonSource {
  path: string;
  data: Uint8Array;
}

/** A source Python refuses to compile, with where. */
export interface PythonSyntaxError {
  path: string;
  line?: number;
  column?: number;
  message: string;
}

export type PythonSyntaxCheck = { checked: true; errors: PythonSyntaxError[] } | { checked: false; reason: string };

/**
 * Compiles every source with `compile()`, which parses and builds bytecode and runs nothing: no
 * import, no tool code. `-I -S` keeps Python from reading the environment, the user's site
 * folder and `.pth` files (which could run code), and the sources come on stdin, so Python opens no
 * file of the tool. A `# coding:` line is honoured, as when the tool is imported.
 */
const COMPILE_ALL = `
import base64, json, sys
errors = []
for source in json.load(sys.stdin):
    try:
        compile(base64.b64decode(source["data"]), source["path"], "exec", dont_inherit=True)
    except SyntaxError as error:
        errors.append({"path": source["path"], "line": error.lineno, "column": error.offset, "message": error.msg})
    except ValueError as error:
        errors.append({"path": source["path"], "message": str(error)})
json.dump(errors, sys.stdout)
`;

const TIMEOUT_MS = 60_000;

/** Python's verdict on each source, or why it could not be asked (no interpreter): then nothing is known. */
export function checkPythonSyntax(sources: readonly PythonSource[], pythonPath = "python3"): Promise<PythonSyntaxCheck> {
  if (sources.length === 0) return Promise.resolve({ checked: true, errors: [] });
  const input = JSON.stringify(sources.map((source) => ({ path: source.path, data: Buffer.from(source.data).toString("base64") })));
  return new Promise((resolve) => {
    const child = execFile(
      pythonPath,
      ["-I", "-S", "-c", COMPILE_ALL],
      { cwd: tmpdir(), env: { PATH: process.env.PATH ?? "" }, timeout: TIMEOUT_MS, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error !== null) {
          const code = (error as NodeJS.ErrnoException).code;
          const reason =
            code === "ENOENT" ? `${pythonPath} was not found` : `${pythonPath} failed (${stderr.trim().slice(-300) || error.message})`;
          resolve({ checked: false, reason });
          return;
        }
        try {
          resolve({ checked: true, errors: JSON.parse(stdout) as PythonSyntaxError[] });
        } catch {
          resolve({ checked: false, reason: `${pythonPath} answered ${JSON.stringify(stdout.slice(0, 100))}` });
        }
      },
    );
    child.stdin?.end(input);
  });
}
