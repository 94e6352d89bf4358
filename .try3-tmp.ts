import { readFileSync } from "node:fs";
import { Bash } from "./sdk/src/builtin/bash/bash-tool.js";
import { PermissionEngine } from "./sdk/src/permission/index.js";
const load = (f: string) => readFileSync(f, "utf8").split("\n").filter((l) => l.trim() && !l.startsWith("#")).map((l) => { if (l.startsWith("\"") && l.endsWith("\"")) { try { return JSON.parse(l) as string; } catch { return l; } } return l; });
const bash = new Bash({ cwd: "/tmp/hb/proj" });
const engine = new PermissionEngine({});
for (const c of load("test/builtin/corpus/bash-unsafe.txt")) {
  const d = await engine.checkPermission(bash, { command: c });
  if (d.behavior === "allow") console.log("UNSAFE ALLOWED:", JSON.stringify(c), d.message);
}
for (const c of load("test/builtin/corpus/bash-safe.txt")) {
  const d = await engine.checkPermission(bash, { command: c });
  if (d.behavior !== "allow") console.log("SAFE NOT ALLOWED:", JSON.stringify(c), d.message);
}
