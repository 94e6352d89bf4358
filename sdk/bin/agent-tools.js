#!/usr/bin/env node
// A committed launcher, so npm can link the `agent-tools` command at install time, before the
// build has produced dist/ (the root `prepare` script builds it right after linking).
await import("../dist/cli/main.js");
