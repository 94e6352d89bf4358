// Rewrites the generated spec.json field reference in docs/authoring.md: `npx tsx test/docs/write-spec-reference.ts`.
import { readFileSync, writeFileSync } from "node:fs";
import { REPO_ROOT } from "./support/markdown-pages.js";
import { withSpecReference } from "./support/spec-reference.js";

const path = `${REPO_ROOT}docs/authoring.md`;
writeFileSync(path, withSpecReference(readFileSync(path, "utf8")));
console.log(`updated ${path}`);
