// Rewrites the generated table of refused system calls in docs/sandbox.md: `npx tsx test/docs/write-seccomp-rules.ts`.
import { readFileSync, writeFileSync } from "node:fs";
import { withGeneratedBlock } from "./support/generated-block.js";
import { REPO_ROOT } from "./support/markdown-pages.js";
import { SECCOMP_RULES_BLOCK } from "./support/seccomp-rules-table.js";

const path = `${REPO_ROOT}${SECCOMP_RULES_BLOCK.page}`;
writeFileSync(path, withGeneratedBlock(readFileSync(path, "utf8"), SECCOMP_RULES_BLOCK));
console.log(`updated ${path}`);
