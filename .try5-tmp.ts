import { performance } from "node:perf_hooks";
import { Bash, loadBashParser, PermissionEngine } from "./sdk/src/index.js";
import { loadCorpus } from "./test/builtin/support.js";
await loadBashParser();
const commands = [...loadCorpus("bash-unsafe.txt"), ...loadCorpus("bash-safe.txt")];
const bash = new Bash({ cwd: process.cwd() });
const engine = new PermissionEngine();
const times: [number, string][] = [];
for (let p = 0; p < 2; p++) for (const c of commands) { const t = performance.now(); await engine.checkPermission(bash, { command: c }); if (p) times.push([performance.now() - t, c]); }
times.sort((a, b) => b[0] - a[0]);
console.log(times.slice(0, 15).map(([t, c]) => `${t.toFixed(2)}ms ${JSON.stringify(c)}`).join("\n"));
