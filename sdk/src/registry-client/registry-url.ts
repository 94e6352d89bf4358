import { AgentToolsError } from "../errors.js";

/** A registry's base URL is its origin (and any path prefix it is deployed under), never one of its routes. */
export class RegistryUrlError extends AgentToolsError<"REGISTRY_URL_INVALID"> {
  /** What is wrong, e.g. "is not an http:// or https:// URL". */
  readonly problem: string;
  /** The URL that would work, when one can be told from the given one. */
  readonly suggestion: string | undefined;

  constructor(value: string, problem: string, suggestion: string | undefined) {
    super("REGISTRY_URL_INVALID", `The registry URL "${value}" ${problem}${suggestion === undefined ? "" : `: use ${suggestion}`}.`);
    this.problem = problem;
    this.suggestion = suggestion;
  }
}

/**
 * `value` as a registry base URL (no trailing slash), or a `RegistryUrlError` saying what is wrong:
 * not http(s) (`localhost:6000`, `ftp://…`), or a route of the registry rather than the registry
 * (`http://127.0.0.1:6000/tools`, `…/tools/text-stats`), which would make every request ask for
 * `/tools/tools/…` and answer "No tool with id tools".
 */
export function checkRegistryUrl(value: string): string {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (url === undefined || (url.protocol !== "http:" && url.protocol !== "https:") || url.hostname === "") {
    const guess = /^[\w.-]+(:\d+)?(\/.*)?$/.test(value) ? `http://${value}` : undefined;
    throw new RegistryUrlError(value, "is not an http:// or https:// URL", guess);
  }
  const route = /(^|\/)tools(\/.*)?$/.exec(url.pathname.replace(/\/+$/, ""));
  if (route !== null) {
    const base = `${url.origin}${url.pathname.slice(0, route.index)}`;
    throw new RegistryUrlError(value, "names the registry's /tools route, not the registry (clients add /tools themselves)", base);
  }
  return value.replace(/\/+$/, "");
}
