/** Runs every `bench/*.bench.ts` in its own process, one after another, so they never compete for the two cores. */
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";

const benchDir = fileURLToPath(new URL(".", import.meta.url));
const only = process.argv.slice(2);
const files = readdirSync(benchDir)
  .filter((name) => name.endsWith(".bench.ts"))
  .filter((name) => only.length === 0 || only.some((word) => name.includes(word)))
  .sort();

let failures = 0;
for (const file of files) {
  console.log(`\n## ${file}\n`);
  const run = spawnSync(process.execPath, ["--openssl-legacy-provider", "--import", "tsx", `${benchDir}${file}`], {
    stdio: "inherit",
    env: { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true" },
  });
  if (run.status !== 0) failures += 1;
}
process.exit(failures === 0 ? 0 : 1);
