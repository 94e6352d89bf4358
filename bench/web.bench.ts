/**
 * Web catalogue render time against `GET /tools/{id}` (the API's hot path: cached entry, memoised
 * JSON), measured in the same run on the same in-process app and warm caches: each request goes
 * through Hono's `app.request` (routing, handler, rendering; no sockets), the routes interleaved
 * so a burst of load on the machine hits every row alike. Also the size of each page, raw and
 * gzipped. A catalogue of TOOLS tools, each with a tool.md of about 3 KB and an input schema.
 *
 *   npx tsx bench/web.bench.ts      (or: npm run bench web)
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "fflate";
import { createRegistryApp } from "../functions/app.js";
import { startLocalRegistry } from "../functions/local/start-local-registry.js";
import { echoToolBundle, uploadOrThrow } from "../test/functions/search/search-bundles.js";
import { p50p99 } from "./percentiles.js";

const TOOLS = 100;
const ROUNDS = 2000;
const WARMUP = 200;

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";

const WORDS = [
  "count",
  "words",
  "text",
  "csv",
  "json",
  "convert",
  "parse",
  "summarise",
  "image",
  "resize",
  "audio",
  "search",
  "index",
  "files",
  "archive",
];

function manPage(index: number): string {
  const paragraph = Array.from({ length: 60 }, (_, word) => WORDS[(index + word * 7) % WORDS.length]).join(" ");
  return [
    `# tool-${index}`,
    "",
    paragraph,
    "",
    "## Input",
    "",
    "| field | meaning |",
    "|---|---|",
    "| text | the text |",
    "",
    "```json",
    '{"text": "a b a"}',
    "```",
    "",
    `See [the guide](https://example.org/${index}).`,
    "",
    paragraph,
    "",
    paragraph,
    "",
    paragraph,
  ].join("\n");
}

const dataDir = await mkdtemp(join(tmpdir(), "agent-tools-web-bench-"));
const registry = await startLocalRegistry({ dataDir, port: 0, host: "127.0.0.1", token: "bench-token" });
try {
  for (let index = 0; index < TOOLS; index++) {
    const spec = {
      tool_id: `tool-${String(index).padStart(3, "0")}`,
      tool_type: ["text-processing", "data", "media"][index % 3],
      tool_tags: [WORDS[index % WORDS.length]!, WORDS[(index * 3) % WORDS.length]!],
      tool_search_description: `${WORDS[index % WORDS.length]} ${WORDS[(index + 4) % WORDS.length]} tool number ${index}`,
      tool_api_spec: {
        entrypoints: {
          execute: {
            input: {
              type: "object",
              properties: { text: { type: "string", description: "Input text" }, limit: { type: "integer", default: 3 } },
              required: ["text"],
            },
          },
        },
      },
    };
    await uploadOrThrow(registry.url, "bench-token", echoToolBundle(spec, manPage(index)));
  }
  await uploadOrThrow(registry.url, "bench-token", echoToolBundle({ tool_id: "tool-000", version: "1.1.0" }, manPage(0)));

  const app = createRegistryApp(registry.deps);
  const routes: [name: string, path: string][] = [
    ["GET /tools/{id} (JSON, baseline)", "/tools/tool-000"],
    ["tool page /t/{id}", "/t/tool-000"],
    ["version page /t/{id}/{version}", "/t/tool-000/1.0.0"],
    ["catalogue / (first page)", "/"],
    ["search /?q=count+words", "/?q=count+words"],
    ["GET /tools/search?q=count+words (JSON)", "/tools/search?q=count+words&limit=21"],
  ];
  const samples = new Map(routes.map(([name]) => [name, [] as number[]]));
  const sizes = new Map<string, { raw: number; gzip: number }>();
  for (let round = 0; round < WARMUP + ROUNDS; round++) {
    for (const [name, path] of routes) {
      const started = process.hrtime.bigint();
      const response = await app.request(path);
      const body = new Uint8Array(await response.arrayBuffer());
      const elapsed = Number(process.hrtime.bigint() - started) / 1e6;
      if (response.status !== 200) throw new Error(`${path} answered ${response.status}`);
      if (round >= WARMUP) samples.get(name)!.push(elapsed);
      if (!sizes.has(name)) sizes.set(name, { raw: body.byteLength, gzip: gzipSync(body).byteLength });
    }
  }

  const baseline = p50p99(samples.get(routes[0]![0])!);
  console.log(
    `Node ${process.version}, ${TOOLS} tools, ${ROUNDS} requests per row after ${WARMUP} warm-up, in process (app.request), interleaved.\n`,
  );
  console.log("| route | p50 | p99 | p50 vs GET /tools/{id} | body | gzip |");
  console.log("|---|---:|---:|---:|---:|---:|");
  for (const [name] of routes) {
    const { p50, p99 } = p50p99(samples.get(name)!);
    const size = sizes.get(name)!;
    console.log(
      `| ${name} | ${p50.toFixed(3)} ms | ${p99.toFixed(3)} ms | ${(p50 / baseline.p50).toFixed(1)}× ` +
        `| ${(size.raw / 1024).toFixed(1)} KB | ${(size.gzip / 1024).toFixed(1)} KB |`,
    );
  }
} finally {
  await registry.close();
  await rm(dataDir, { recursive: true, force: true });
}
