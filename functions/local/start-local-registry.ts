import type { AddressInfo } from "node:net";
import { serve, type ServerType } from "@hono/node-server";
import { createRegistryApp } from "../app.js";
import { loadLocalToken } from "../auth/local-token.js";
import type { ArchiveDelivery, RegistryConfig } from "../config.js";
import { createRegistryDeps, type RegistryDeps, type RegistryDepsOptions } from "../registry-deps.js";
import type { RouteModule } from "../route-module.js";
import { CatalogIndexer } from "../indexing/catalog-indexer.js";
import { IndexerSchedule } from "../indexing/indexer-schedule.js";
import { createDynamoDocumentClient } from "../storage/aws-clients.js";
import { EntryStore } from "../storage/entry-store.js";
import { separateCataloguePort } from "./browser-ports.js";
import type { EmulatorOptions } from "./emulators.js";
import { localSdkPackage } from "./local-sdk-package.js";
import { openLocalStorage } from "./open-local-storage.js";

export interface LocalRegistryOptions extends EmulatorOptions {
  /** Where dynalite and s3rver persist, and where the write-token hash lives. */
  dataDir: string;
  /** 0 picks a free port. Default 6000. */
  port?: number;
  /**
   * A port of its own for the web catalogue (0 picks a free one). By default the API's port serves
   * it too, unless browsers refuse that port (6000 among them): then 6080 (docs/web.md#opening-the-catalogue).
   */
  webPort?: number;
  /** The SDK package folder `/sdk/<file>` packs and serves. Default: this checkout's `sdk/`. */
  sdkDir?: string;
  /** Default 127.0.0.1. */
  host?: string;
  /** Use this write token instead of the stored or generated one. */
  token?: string;
  publicUrl?: string;
  /** Reverse proxies in front of this server whose forwarded headers are believed. */
  trustedProxies?: string[];
  archiveDelivery?: ArchiveDelivery;
  maxBundleBytes?: number;
  cacheRevalidateMs?: number;
  onCatalogChange?: RegistryDepsOptions["onCatalogChange"];
  /** Hybrid search's embedder (by default the one `SEARCH_EMBEDDINGS` configures, usually none). */
  embedder?: RegistryDepsOptions["embedder"];
  extraRoutes?: RouteModule[];
  /** Writes one publisher token may make per minute (default 60, `PUBLISHER_WRITES_PER_MINUTE`). */
  publisherWritesPerMinute?: number;
  /** The search index snapshot is rebuilt in process this long after the last write. Default 2000. */
  searchIndexDelayMs?: number;
}

export interface LocalRegistry {
  /** Base URL, e.g. http://127.0.0.1:6000 (a wildcard host is shown as 127.0.0.1). */
  url: string;
  /** The address and port the server listens on, e.g. 0.0.0.0 and 6000 with `host: "0.0.0.0"`. */
  host: string;
  port: number;
  /** The catalogue's page for a browser, e.g. http://127.0.0.1:6080/ (the same app, on a port browsers open). */
  catalogueUrl: string;
  /** The write token when this process knows it (given, or generated on first start). */
  token: string | undefined;
  tokenSource: "given" | "generated" | "stored";
  /** The file holding the sha256 of a generated token. */
  tokenHashFile: string;
  /** Why this start is read-only (a full disk), when it is: writes answer 507 until space is freed, then work again. */
  readOnly?: string;
  /** The emulators' endpoints and the stores, for tests and benchmarks. */
  config: RegistryConfig;
  deps: RegistryDeps;
  /**
   * Resolves once the in-process search indexer is not running (its first run starts with the server): for
   * tests that count storage calls.
   */
  searchIndexIdle(): Promise<void>;
  close(): Promise<void>;
}

/** The embedded default: emulators on loopback, storage provisioned, the whole app served by Node. */
export async function startLocalRegistry(options: LocalRegistryOptions): Promise<LocalRegistry> {
  const host = options.host ?? "127.0.0.1";
  const storage = await openLocalStorage(options.dataDir, { dynamodbEndpoint: options.dynamodbEndpoint });
  try {
    const config: RegistryConfig = {
      ...storage.config,
      publicUrl: options.publicUrl?.replace(/\/+$/, ""),
      trustedProxies: options.trustedProxies ?? [],
      archiveDelivery: options.archiveDelivery ?? storage.config.archiveDelivery,
      maxBundleBytes: options.maxBundleBytes ?? storage.config.maxBundleBytes,
      cacheRevalidateMs: options.cacheRevalidateMs ?? storage.config.cacheRevalidateMs,
      ...(options.publisherWritesPerMinute === undefined ? {} : { publisherWritesPerMinute: options.publisherWritesPerMinute }),
    };
    const token = await loadLocalToken(storage.dataDir, options.token);
    const deps = createRegistryDeps(config, token.verify, {
      onCatalogChange: options.onCatalogChange,
      embedder: options.embedder,
      space: storage.space,
      sdkPackage: (store) => localSdkPackage(store, options.sdkDir),
    });
    const app = createRegistryApp(deps, { extraRoutes: options.extraRoutes });
    // What the indexer Lambda does on AWS, here in process with its own storage client (docs/search.md).
    const indexerEntries = new EntryStore(createDynamoDocumentClient(config), config.tableName);
    const indexer = new IndexerSchedule(new CatalogIndexer(config, indexerEntries), options.searchIndexDelayMs ?? 2000);
    deps.reader.onChange(() => indexer.poke());
    void indexer.runNow();
    const apiPort = options.port ?? 6000;
    const webPort = separateCataloguePort(apiPort, options.webPort);
    const servers = [await listen(app.fetch, apiPort, host)];
    const closeServers = () =>
      Promise.all(
        servers.map(
          (server) =>
            new Promise<void>((done) => {
              server.close(() => done());
              if ("closeAllConnections" in server) server.closeAllConnections();
            }),
        ),
      );
    try {
      // The same app on a port browsers open: the API's own (6000) is one they refuse.
      if (webPort !== undefined) servers.push(await listen(app.fetch, webPort, host));
      await token.persist();
    } catch (error) {
      await closeServers();
      throw error;
    }
    const [port, cataloguePort] = servers.map((server) => (server.address() as AddressInfo).port) as [number, number | undefined];
    const shownHost = host === "0.0.0.0" || host === "::" ? "127.0.0.1" : host.includes(":") ? `[${host}]` : host;

    let closing: Promise<void> | undefined;
    return {
      url: `http://${shownHost}:${port}`,
      host,
      port,
      catalogueUrl: `http://${shownHost}:${cataloguePort ?? port}/`,
      token: token.token,
      tokenSource: token.source,
      tokenHashFile: token.hashFile,
      ...(storage.readOnly === undefined ? {} : { readOnly: storage.readOnly }),
      config,
      deps,
      searchIndexIdle: () => indexer.idle(),
      close() {
        closing ??= (async () => {
          await indexer.close();
          await closeServers();
          await storage.close();
        })();
        return closing;
      },
    };
  } catch (error) {
    await storage.close();
    throw error;
  }
}

function listen(fetch: (request: Request) => Response | Promise<Response>, port: number, hostname: string): Promise<ServerType> {
  return new Promise((resolveServer, reject) => {
    const server = serve({ fetch, port, hostname }, () => resolveServer(server));
    server.once("error", reject);
  });
}
