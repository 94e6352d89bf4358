import { readFileSync } from "node:fs";

/** The SDK version, reported to registries and MCP peers: read from the package's own `package.json` (`src/` and `dist/` sit beside it). */
export const VERSION: string = (JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string })
  .version;
