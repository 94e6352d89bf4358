// Rewrites docs/errors.md from sdk/src/error-codes.ts: `npx tsx test/docs/write-error-codes.ts`.
import { writeFileSync } from "node:fs";
import { renderErrorCodesPage } from "./support/error-codes-page.js";
import { REPO_ROOT } from "./support/markdown-pages.js";

const path = `${REPO_ROOT}docs/errors.md`;
writeFileSync(path, renderErrorCodesPage());
console.log(`updated ${path}`);
