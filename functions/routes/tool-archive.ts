import { detectArchiveFormat } from "@agent-tools/sdk/archive";
import type { Context } from "hono";
import type { PublishedEntry } from "../entry/published-entry.js";
import { publicReadCacheControl } from "../http/edge-cache.js";
import { notModified } from "../http/entity-tag.js";
import { HttpProblem } from "../http-problem.js";
import type { RegistryDeps } from "../registry-deps.js";
import { ArchiveStore } from "../storage/archive-store.js";
import { toolIdParam, versionParam } from "./tool-params.js";
import { toolNotFound } from "./tool-not-found.js";
import type { RouteModule } from "../route-module.js";

/**
 * `GET /tools/{id}/archive` (latest) and `GET /tools/{id}/versions/{version}/archive`: the exact
 * `tool.zip` bytes. `redirect` answers 302 to a short-lived presigned S3 URL (AWS); `proxy`
 * streams the bytes through the registry (the embedded emulator is loopback-only).
 */
export const toolArchiveRoute: RouteModule = (app, deps) => {
  app.get("/tools/:id/archive", async (c) => {
    const toolId = toolIdParam(c);
    const entry = await deps.reader.latest(toolId);
    if (!entry) throw toolNotFound(toolId);
    return sendArchive(c, deps, entry);
  });

  app.get("/tools/:id/versions/:version/archive", async (c) => {
    const id = toolIdParam(c);
    const version = versionParam(c);
    const entry = await deps.reader.version(id, version);
    if (!entry) throw toolNotFound(id, version);
    return sendArchive(c, deps, entry);
  });
};

/**
 * The archive a request names: `tool.zip` (`tool_archive_sha256`), or with `?platform=<key>` one
 * platform's of a binary tool built for several (docs/authoring.md#platforms).
 */
function requestedArchive(c: Context, entry: PublishedEntry): { sha256: string; suffix: string } {
  const key = c.req.query("platform");
  if (key === undefined || key === "") return { sha256: entry.tool_archive_sha256, suffix: "" };
  const archive = entry.tool_platform_archives?.find((candidate) => candidate.key === key);
  if (archive !== undefined) return { sha256: archive.sha256, suffix: `-${archive.key}` };
  const keys = (entry.tool_platform_archives ?? []).map((candidate) => candidate.key);
  throw new HttpProblem(
    404,
    "Archive not found",
    keys.length === 0
      ? `${entry.tool_id}@${entry.version} declares no platforms: it has one archive, at this URL without ?platform.`
      : `${entry.tool_id}@${entry.version} has no archive for platform ${JSON.stringify(key.slice(0, 64))}; it has ${keys.join(", ")}.`,
  );
}

async function sendArchive(c: Context, deps: RegistryDeps, entry: PublishedEntry): Promise<Response> {
  const { sha256, suffix } = requestedArchive(c, entry);
  if (deps.config.archiveDelivery === "cdn") {
    // The bytes at /archives/<sha256> never change and are cached at the edge; the redirect only
    // briefly (a deleted tool's version can be published again with other bytes).
    c.header("Cache-Control", publicReadCacheControl(deps.config));
    return c.redirect(`${deps.config.publicUrl}/${ArchiveStore.key(sha256)}`, 302);
  }
  if (deps.config.archiveDelivery === "redirect") {
    if (!(await deps.archiveBytes.isIntact(sha256))) throw archiveMissing(entry);
    const url = await deps.archives.presignGet(
      sha256,
      deps.config.presignExpiresSeconds,
      `${entry.tool_id}-${entry.version}${suffix}-tool.zip`,
    );
    c.header("Cache-Control", "no-store");
    return c.redirect(url, 302);
  }
  const etag = `"${sha256}"`;
  // Revalidated, never immutable: a deleted tool's version can be published again with other bytes.
  // Content-addressed: a client holding these bytes (same hash) needs nothing more.
  const cacheControl = "no-cache";
  const unchanged = notModified(c, etag, { "Cache-Control": cacheControl });
  if (unchanged) return unchanged;
  const bytes = await deps.archiveBytes.get(sha256);
  if (!bytes) throw archiveMissing(entry);
  const zip = detectArchiveFormat(bytes) === "zip";
  return c.body(bytes as Uint8Array<ArrayBuffer>, 200, {
    "Content-Type": zip ? "application/zip" : "application/gzip",
    "Content-Length": String(bytes.byteLength),
    "Content-Disposition": `attachment; filename="${zip ? "tool.zip" : "tool.tar.gz"}"`,
    ETag: etag,
    Digest: `sha-256=${Buffer.from(sha256, "hex").toString("base64")}`,
    "Cache-Control": cacheControl,
  });
}

/** The stored object is gone or damaged (it is never served then); the same bundle uploaded again restores it. */
function archiveMissing(entry: PublishedEntry): HttpProblem {
  return new HttpProblem(
    404,
    "Archive not found",
    `The archive of ${entry.tool_id}@${entry.version} is missing or damaged in storage; upload ` +
      `the same bundle again to restore it (agent-tools registry doctor reports such versions).`,
  );
}
