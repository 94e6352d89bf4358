import { HttpProblem } from "../http-problem.js";
import { requestOrigin } from "../http/request-origin.js";
import type { RouteModule } from "../route-module.js";
import { renderManPage } from "./render-markdown.js";
import { getPage, sendPage } from "./send-page.js";
import { ToolPage } from "./views/tool-page.js";
import { toolPath } from "./web-paths.js";

/**
 * A version's content never changes, but its page also lists the tool's other versions, which a
 * new upload extends: cacheable for minutes, where the API's versioned JSON is cached for a year.
 */
export const VERSION_PAGE_CACHE_CONTROL = "public, max-age=300";

/** `/t/{id}` (the latest version) and `/t/{id}/{version}`. */
export const toolRoute: RouteModule = (app, deps) => {
  getPage(app, "/t/:id", async (c) => {
    const toolId = c.req.param("id");
    const [entry, versions] = await Promise.all([deps.reader.latest(toolId), deps.reader.versions(toolId)]);
    if (!entry) throw noSuchTool(toolId);
    return sendPage(
      c,
      <ToolPage entry={entry} versions={versions} origin={requestOrigin(c, deps.config)} manPageHtml={await renderManPage(entry)} />,
    );
  });

  getPage(app, "/t/:id/:version", async (c) => {
    const { id, version } = c.req.param();
    const [entry, versions] = await Promise.all([deps.reader.version(id, version), deps.reader.versions(id)]);
    if (!entry) {
      if (versions.length === 0) throw noSuchTool(id);
      throw new HttpProblem(
        404,
        "Version not found",
        `${id} has no version ${version}; its newest versions are ${versions
          .slice(0, 10)
          .map((v) => v.version)
          .join(", ")} (see ${toolPath(id)}).`,
      );
    }
    return sendPage(
      c,
      <ToolPage entry={entry} versions={versions} origin={requestOrigin(c, deps.config)} manPageHtml={await renderManPage(entry)} />,
      { cacheControl: VERSION_PAGE_CACHE_CONTROL },
    );
  });
};

function noSuchTool(toolId: string): HttpProblem {
  return new HttpProblem(
    404,
    "Tool not found",
    `No tool with id ${JSON.stringify(toolId)} is published. Search the catalogue for it by name or description.`,
  );
}
