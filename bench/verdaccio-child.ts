/**
 * The Verdaccio child process of `verdaccio.ts`: `<install dir> <storage dir>`; serves on a free
 * 127.0.0.1 port, which it sends to the parent. No uplinks (nothing leaves the machine), no web UI,
 * logging at fatal only, and anyone may publish.
 */
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [installed, storage] = process.argv.slice(2) as [string, string];
const { runServer } = (await import(pathToFileURL(join(installed, "node_modules", "verdaccio", "build", "index.js")).href)) as {
  runServer: (config: object) => Promise<import("node:http").Server>;
};
const server = await runServer({
  self_path: storage,
  storage: join(storage, "storage"),
  auth: { htpasswd: { file: join(storage, "htpasswd"), max_users: -1 } },
  uplinks: {},
  packages: { "**": { access: "$all", publish: "$all", unpublish: "$all" } },
  log: { type: "stdout", format: "pretty", level: "fatal" },
  max_body_size: "50mb",
  web: { enable: false },
});
server.listen(0, "127.0.0.1", () => process.send!((server.address() as import("node:net").AddressInfo).port));
