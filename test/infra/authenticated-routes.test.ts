/**
 * The `authenticated` flag on the API's routes (infra/registry-functions.ts) is what the stack
 * builds CloudFront's token-forwarding, never-cached behaviours from, so it must say the truth:
 * every flagged route answers 401 to a request without a token, and no unflagged one does.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REGISTRY_FUNCTIONS, type ApiRoute } from "../../infra/registry-functions.js";
import { startTestRegistry, type TestRegistry } from "../support/registry.js";

let registry: TestRegistry;
beforeAll(async () => {
  registry = await startTestRegistry();
});
afterAll(() => registry?.close());

/** Sample values for the routes' path parameters (all well-formed, so a 401 is about the token, not the path). */
const SAMPLE_PARAMETERS: Record<string, string> = {
  id: "some-tool",
  version: "1.0.0",
  uploadId: "0123456789abcdef0123456789abcdef",
  name: "acme",
  keyId: `sha256:${"0".repeat(64)}`,
};

const routes = REGISTRY_FUNCTIONS.flatMap((definition) =>
  definition.routes === undefined || definition.routes === "default"
    ? []
    : definition.routes.flatMap((route: ApiRoute) =>
        route.methods.map((method: string) => ({ method, path: route.path, authenticated: route.authenticated })),
      ),
);

describe("authenticated routes", () => {
  it("covers the upload function's routes, flagging all but the public read of signing keys", () => {
    expect(routes.filter((route) => route.authenticated === undefined).map((route) => `${route.method} ${route.path}`)).toEqual([
      "GET /publishers/{name}/keys",
      "GET /tools/search",
    ]);
  });

  it.each(routes)("$method $path answers 401 without a token exactly when flagged", async ({ method, path, authenticated }) => {
    const url = path.replace(/\{([^}]+)\}/g, (_match: string, name: string) => encodeURIComponent(SAMPLE_PARAMETERS[name] ?? "x"));
    const response = await fetch(`${registry.url}${url}`, {
      method,
      ...(method === "GET" || method === "HEAD" ? {} : { headers: { "content-type": "application/json" }, body: "{}" }),
    });
    await response.arrayBuffer();
    if (authenticated) expect(response.status).toBe(401);
    else expect(response.status).not.toBe(401);
  });
});
