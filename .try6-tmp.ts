import { performance } from "node:perf_hooks";
import { loadBashParser, PermissionEngine, analyseBash, DEFAULT_DANGEROUS_FILES, DEFAULT_DANGEROUS_DIRECTORIES } from "./sdk/src/index.js";
import { isReadOnlyBash, sensitivePaths } from "./sdk/src/builtin/shell/bash-permission.js";
import { loadCorpus } from "./test/builtin/support.js";
await loadBashParser();
const commands = [...loadCorpus("bash-unsafe.txt"), ...loadCorpus("bash-safe.txt")];
const opts = { cwd: process.cwd(), dangerousPaths: { files: DEFAULT_DANGEROUS_FILES, directories: DEFAULT_DANGEROUS_DIRECTORIES }, toolName: "Bash" };
const analyses = [];
for (let r = 0; r < 3; r++) {
  let t = performance.now(); analyses.length = 0;
  for (const c of commands) analyses.push(await analyseBash(c, process.cwd()));
  const a = performance.now() - t; t = performance.now();
  for (const an of analyses) sensitivePaths(an, opts);
  const s = performance.now() - t;
  console.log(`analyse ${(a / commands.length * 1000).toFixed(0)}µs/cmd, sensitivePaths ${(s / commands.length * 1000).toFixed(0)}µs/cmd`);
}
