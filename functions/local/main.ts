// The embedded default: `npm start` serves the registry with in-process emulators on loopback.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";

import { parseArgs } from "node:util";

const USAGE = `Usage: npm start -- [options]

Serves the Agent Tools registry with embedded storage (DynamoDB and S3 emulators, persisted).

Options (each has an environment variable):
  --port <n>        PORT            listen port of the API (default 6000; 0 picks a free one)
  --web-port <n>    WEB_PORT        a port of its own for the web catalogue (default: the API's, or 6080
                                    when browsers refuse the API's port, as they refuse 6000)
  --host <addr>     HOST            listen address (default 127.0.0.1; 0.0.0.0 for other machines)
  --data-dir <dir>  DATA_DIR        where tools and the token hash persist (default ./.data)
  --token <token>   REGISTRY_TOKEN  use this write token instead of the generated one
  --public-url <u>  PUBLIC_URL      origin used in tool_source_code_link (default: the request's)
  --trusted-proxy <addrs>  TRUSTED_PROXIES
                    comma-separated proxy addresses whose X-Forwarded-Host/-Proto are believed
  -h, --help        show this help
`;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: "string" },
      "web-port": { type: "string" },
      host: { type: "string" },
      "data-dir": { type: "string" },
      token: { type: "string" },
      "public-url": { type: "string" },
      "trusted-proxy": { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help) {
    process.stdout.write(USAGE);
    return;
  }
  const port = portNumber("port", values.port ?? process.env.PORT ?? "6000");
  const webPortText = values["web-port"] ?? process.env.WEB_PORT;
  const webPort = webPortText === undefined || webPortText === "" ? undefined : portNumber("web port", webPortText);
  const dataDir = values["data-dir"] ?? process.env.DATA_DIR ?? "./.data";

  // Loaded after the env default above, so the AWS SDK sees it.
  const { startLocalRegistry } = await import("./start-local-registry.js");
  const { listeningBanner } = await import("./listening-banner.js");
  const { addressList, loadConfig } = await import("../config.js");
  const registry = await startLocalRegistry({
    port,
    webPort,
    host: values.host ?? process.env.HOST ?? "127.0.0.1",
    dataDir,
    token: values.token ?? process.env.REGISTRY_TOKEN,
    publicUrl: values["public-url"] ?? process.env.PUBLIC_URL,
    trustedProxies: addressList(values["trusted-proxy"] ?? process.env.TRUSTED_PROXIES),
    ...(process.env.PUBLISHER_WRITES_PER_MINUTE ? { publisherWritesPerMinute: loadConfig(process.env).publisherWritesPerMinute } : {}),
  });

  const sdkPackage = registry.deps.sdkPackage;
  console.log(listeningBanner({ ...registry, sdkFile: sdkPackage?.file }));
  // Packed now rather than at the first download, so that one is quick; a failure is said here and retried then.
  sdkPackage?.ready().catch((error: unknown) => console.error(`SDK package: ${error instanceof Error ? error.message : String(error)}`));
  console.log(`Data folder: ${dataDir}`);
  if (registry.readOnly !== undefined) console.log(`Read-only: ${registry.readOnly}.`);
  if (registry.tokenSource === "generated") {
    console.log(`Write token (shown once; only its sha256 is stored in ${registry.tokenHashFile}):`);
    console.log(`  ${registry.token}`);
    console.log(`Use it as: curl -H "Authorization: Bearer <token>" ...`);
  } else if (registry.tokenSource === "stored") {
    console.log(`Write token: generated on first start; its sha256 is in ${registry.tokenHashFile}.`);
    console.log(`Lost it? Start with REGISTRY_TOKEN=<new token> (or --token), or delete that file to generate a new one.`);
  } else {
    console.log("Write token: the one given by REGISTRY_TOKEN / --token.");
  }

  // Handlers stay installed: a second signal (a terminal's group SIGINT plus tsx relaying it, or a
  // second Ctrl-C) must not meet Node's default handler and end the process before the stores close.
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: shutting down`);
    registry.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  };
  process.on("SIGINT", () => stop("SIGINT"));
  process.on("SIGTERM", () => stop("SIGTERM"));
}

function portNumber(name: string, text: string): number {
  const port = Number(text);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`${name} must be 0-65535, got "${text}"`);
  return port;
}

main().catch((error: unknown) => {
  const message = error instanceof Error ? error.message : String(error);
  const hint =
    (error as NodeJS.ErrnoException).code === "EADDRINUSE"
      ? " (another server uses this port: stop it, or choose another with PORT / --port, or WEB_PORT / --web-port for the catalogue)"
      : "";
  console.error(`registry failed to start: ${message}${hint}`);
  process.exit(1);
});
