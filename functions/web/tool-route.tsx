import type { PublishedEntry } from "../entry/published-entry.js";
import semver from "semver";
import { HttpProblem } from "../http-problem.js";
import { includeYankedParam } from "../http/include-yanked-param.js";
import { requestOrigin } from "../http/request-origin.js";
import type { RouteModule } from "../route-module.js";
import { idProblem } from "../validate/tool-id.js";
import { MAX_VERSION_LENGTH } from "../validate/tool-version.js";
import { renderManPage } from "./render-markdown.js";
import { getPage, sendPage } from "./send-page.js";
import { ToolPage } from "./views/tool-page.js";
import { toolPath } from "./web-paths.js";

/**
 * A version's content never changes, but its page also lists the tool's other versions, which a
 * new upload extends: cacheable for minutes, where the API's versioned JSON is cached for a year.
 */
export const VERSION_PAGE_CACHE_CONTROL = "public, max-age=300";

/**
 * `/t/{id}` (the latest version) and `/t/{id}/{version}` (any version, a yanked one included: an
 * exact pin still installs it). Both list the tool's versions without the yanked ones unless
 * `?include_yanked=true`, as `GET /tools/{id}/versions` does.
 */
export const toolRoute: RouteModule = (app, deps) => {
  getPage(app, "/t/:id", async (c) => {
    const toolId = pageToolId(c.req.param("id"));
    const includeYanked = includeYankedParam(c.req.query("include_yanked"));
    const [entry, versions] = await Promise.all([deps.reader.latest(toolId), deps.reader.versions(toolId, true)]);
    if (!entry) throw versions.length === 0 ? noSuchTool(toolId) : everyVersionYanked(toolId, versions);
    return sendPage(
      c,
      <ToolPage
        entry={entry}
        versions={versions}
        includeYanked={includeYanked}
        origin={requestOrigin(c, deps.config)}
        sdkFile={deps.sdkPackage?.file}
        manPageHtml={await renderManPage(entry)}
      />,
    );
  });

  getPage(app, "/t/:id/:version", async (c) => {
    const id = pageToolId(c.req.param("id"));
    const version = pageVersion(c.req.param("version"));
    const includeYanked = includeYankedParam(c.req.query("include_yanked"));
    const [entry, versions] = await Promise.all([deps.reader.version(id, version), deps.reader.versions(id, true)]);
    if (!entry) {
      if (versions.length === 0) throw noSuchTool(id);
      const installable = versions.filter((listed) => listed.status !== "yanked");
      throw new HttpProblem(
        404,
        "Version not found",
        `${id} has no version ${version}; its newest ${installable.length > 0 ? "" : "(all yanked) "}versions are ${(installable.length > 0
          ? installable
          : versions
        )
          .slice(0, 10)
          .map((v) => v.version)
          .join(", ")} (see ${toolPath(id, undefined, installable.length === 0)}).`,
      );
    }
    return sendPage(
      c,
      <ToolPage
        entry={entry}
        versions={versions}
        includeYanked={includeYanked}
        versionInPath={version}
        origin={requestOrigin(c, deps.config)}
        sdkFile={deps.sdkPackage?.file}
        manPageHtml={await renderManPage(entry)}
      />,
      { cacheControl: VERSION_PAGE_CACHE_CONTROL },
    );
  });
};

/** An id no upload could have created is never a storage key (a DynamoDB key over its size limit would be a 500). */
function pageToolId(id: string): string {
  if (idProblem(id) !== undefined) throw noSuchTool(id.length > 60 ? `${id.slice(0, 60)}…` : id);
  return id;
}

/** The version as normalised semver (`v1.2.0` → `1.2.0`), as the API reads it; anything else is a 400 page. */
function pageVersion(raw: string): string {
  const version = raw.length <= MAX_VERSION_LENGTH ? semver.valid(raw) : null;
  if (version === null) {
    throw new HttpProblem(
      400,
      "Invalid version",
      `${JSON.stringify(raw.length > 60 ? `${raw.slice(0, 60)}…` : raw)} is not a semantic version such as 1.0.0 or 2.1.0-beta.1.`,
    );
  }
  return version;
}

function noSuchTool(toolId: string): HttpProblem {
  return new HttpProblem(
    404,
    "Tool not found",
    `No tool with id ${JSON.stringify(toolId)} is published. Search the catalogue for it by name or description.`,
  );
}

/** Like the API's answer for a tool whose versions are all yanked: no latest, but each version's own page still opens. */
function everyVersionYanked(toolId: string, versions: readonly PublishedEntry[]): HttpProblem {
  return new HttpProblem(
    404,
    "Every version is yanked",
    `Every version of ${JSON.stringify(toolId)} is yanked by its publisher, so it has no latest version ` +
      `and nothing installs it but an exact pin. Its versions: ${versions
        .slice(0, 10)
        .map((v) => toolPath(toolId, v.version))
        .join(", ")}.`,
  );
}
