import { describe, expect, it } from "vitest";
import { RegistryUnavailableError, ToolNotFoundError } from "@agent-tools/sdk";
import { asSentence } from "../../sdk/src/errors.js";
import { errorBody } from "../../sdk/src/registry-client/registry-errors.js";

// Messages that join a detail and a hint read as sentences, whatever punctuation the detail ends with.
describe("error messages", () => {
  it("join a detail that ends with a full stop without doubling it", () => {
    const notFound = new ToolNotFoundError(
      "x",
      "Tool not found",
      'No tool with id "x" is published; list the published tools with GET /tools.',
    );
    expect(notFound.message).toBe(
      'Tool "x" is not in the registry: No tool with id "x" is published; list the ' +
        "published tools with GET /tools. Check the id and version, or upload the tool first.",
    );
    expect(new RegistryUnavailableError("http://r", "socket hang up.").message).not.toMatch(/\.\./);
    expect([asSentence("a"), asSentence("a."), asSentence("a.. "), asSentence("GET /tools")]).toEqual(["a.", "a.", "a.", "GET /tools."]);
  });

  it("keep API Gateway's own error message (a 413 over its payload limit), coded by the status when the body names no code", () => {
    expect(errorBody('{"message":"Request Entity Too Large"}', 413)).toEqual({
      error: "Request Entity Too Large",
      detail: "",
      code: "REGISTRY_TOO_LARGE",
    });
    expect(errorBody('{"error":"Bundle too large","detail":"at most 10 MiB","code":"REGISTRY_TOO_LARGE"}', 413)).toEqual({
      error: "Bundle too large",
      detail: "at most 10 MiB",
      code: "REGISTRY_TOO_LARGE",
    });
    expect(errorBody("<html>busy</html>", 503).detail).toBe("<html>busy</html>");
    expect(errorBody("<html>busy</html>", 503).error).toBe("HTTP 503");
  });
});
