import { TOOL_SPEC_SCHEMA } from "@agent-tools/sdk/tool-spec";
import type { RouteModule } from "../route-module.js";

const SCHEMA_JSON = JSON.stringify(TOOL_SPEC_SCHEMA, null, 2);

/** `GET /schemas/spec.json`: the JSON Schema every uploaded spec.json is validated with (for editors and CI). */
export const specSchemaRoute: RouteModule = (app) => {
  app.get("/schemas/spec.json", (c) =>
    c.body(SCHEMA_JSON, 200, { "Content-Type": "application/schema+json", "Cache-Control": "public, max-age=300" }),
  );
};
