import { Bash, PermissionEngine, PermissionMode } from "./sdk/src/index.js";
import { loadCorpus } from "./test/builtin/support.js";
const bash = new Bash({ cwd: "/tmp/hb/proj" });
for (const mode of Object.values(PermissionMode)) {
  const engine = new PermissionEngine({ mode });
  for (const file of ["bash-unsafe.txt", "bash-safe.txt"]) {
    const counts: Record<string, number> = {};
    const allowed: string[] = [];
    for (const c of loadCorpus(file)) {
      const d = await engine.checkPermission(bash, { command: c });
      counts[d.behavior] = (counts[d.behavior] ?? 0) + 1;
      if (d.behavior === "allow" && file === "bash-unsafe.txt" && mode === "accept_edits") allowed.push(c);
    }
    console.log(mode, file, JSON.stringify(counts), allowed.length ? JSON.stringify(allowed) : "");
  }
}
