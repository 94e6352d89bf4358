import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { createServer, type ServerResponse } from "node:http";
import { basename } from "node:path";

/**
 * A Python package index on 127.0.0.1, as pip sees pypi.org: a PEP 503 simple index
 * (`/simple/<project>/` pages linking to `/files/<archive>#sha256=…`) over the given wheels and
 * sdists, recording every request it gets, so a test can tell whether anything was fetched.
 *
 *   const index = await startPackageIndex([wheelPath]);
 *   new AgentTools({ pipArgs: ["--index-url", index.url] });
 *   index.requests;   // ["/simple/tinydep/", "/files/tinydep-1.0-py3-none-any.whl"]
 */
export interface PackageIndex {
  /** The simple index's URL, for `--index-url`. */
  url: string;
  /** `host:port`. */
  host: string;
  /** Request paths, in order. */
  requests: string[];
  close(): Promise<void>;
}

export async function startPackageIndex(archives: string[]): Promise<PackageIndex> {
  const files = new Map<string, Buffer>();
  for (const path of archives) files.set(basename(path), await readFile(path));
  const projects = new Map<string, string[]>();
  for (const name of files.keys()) {
    const project = normalise(/^([^-]+)-/.exec(name)![1]!);
    projects.set(project, [...(projects.get(project) ?? []), name]);
  }
  const requests: string[] = [];
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? "/", "http://index").pathname;
    requests.push(path);
    const page = /^\/simple\/([^/]+)\/?$/.exec(path);
    if (path === "/simple/" || path === "/simple")
      return html(
        response,
        [...projects.keys()].map((name) => link(`/simple/${name}/`, name)),
      );
    if (page !== null) {
      const names = projects.get(normalise(page[1]!));
      if (names === undefined) return notFound(response);
      return html(
        response,
        names.map((name) => link(`/files/${name}#sha256=${createHash("sha256").update(files.get(name)!).digest("hex")}`, name)),
      );
    }
    const file = /^\/files\/([^/]+)$/.exec(path);
    const body = file === null ? undefined : files.get(file[1]!);
    if (body === undefined) return notFound(response);
    response.writeHead(200, { "Content-Type": "application/octet-stream", "Content-Length": body.length }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/simple/`,
    host: `127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** PEP 503 names: lower case, runs of `-`, `_` and `.` become one `-`. */
function normalise(name: string): string {
  return name.toLowerCase().replace(/[-_.]+/g, "-");
}

function link(href: string, text: string): string {
  return `<a href="${href}">${text}</a>`;
}

function html(response: ServerResponse, links: string[]): void {
  const body = `<!DOCTYPE html>\n<html><body>\n${links.join("<br>\n")}\n</body></html>\n`;
  response.writeHead(200, { "Content-Type": "text/html" }).end(body);
}

function notFound(response: ServerResponse): void {
  response.writeHead(404, { "Content-Type": "text/plain" }).end("not found\n");
}
